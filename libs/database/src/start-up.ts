import {
  checkSettings,
  CoreSettings,
  type Dependency,
  type EnvironmentVariables,
  limitHeapGrowth,
  loadSettings,
  redisDependency,
  waitForDependency,
} from '@app/core';
import { Client } from 'pg';
import { DatabaseSettings } from './database.settings';
import { migrateOnStart } from './prepare-database';

/**
 * PostgreSQL at `DATABASE_URL`, accepting a connection: to the database named there, or, when start-up
 * creates it if missing, to the server's `postgres` database.
 */
function postgresDependency(settings: DatabaseSettings): Dependency {
  const url = new URL(settings.DATABASE_URL);
  if (settings.DATABASE_MIGRATE_ON_START) url.pathname = '/postgres';
  return {
    name: 'PostgreSQL',
    setting: 'DATABASE_URL',
    where: new URL(settings.DATABASE_URL).host,
    reach: async () => {
      const client = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 2000 });
      // An error after connecting (the server going away) would otherwise be unhandled.
      client.on('error', () => undefined);
      try {
        await client.connect();
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  };
}

/**
 * What every process does before it builds its app: checks every setting its modules read, bounds its heap's
 * growth (`HEAP_GROWTH_PERCENT`), waits (up to `STARTUP_WAIT_MS`) for PostgreSQL and Redis, then prepares the
 * database. Throws `InvalidSettingsError` or `StartupFailure`, whose messages say what to fix
 * (`exitOnStartFailure`, in `@app/core`, prints them).
 */
export async function prepareStart(
  modules: Parameters<typeof checkSettings>[0],
  variables: EnvironmentVariables,
): Promise<void> {
  await checkSettings(modules, variables);
  const core = loadSettings(CoreSettings, variables);
  const database = loadSettings(DatabaseSettings, variables);
  limitHeapGrowth(core.HEAP_GROWTH_PERCENT);
  await Promise.all(
    [postgresDependency(database), redisDependency(core.redis)].map((dependency) =>
      waitForDependency(dependency, core.STARTUP_WAIT_MS),
    ),
  );
  await migrateOnStart(variables);
}
