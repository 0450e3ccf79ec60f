import {
  checkSettings,
  CoreSettings,
  type Dependency,
  type EnvironmentVariables,
  InvalidSettingsError,
  loadSettings,
  redisDependency,
  StartupFailure,
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
    url: settings.DATABASE_URL,
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
 * What every process does before it builds its app: checks every setting its modules read, waits (up to
 * `STARTUP_WAIT_MS`) for PostgreSQL and Redis, then prepares the database. Throws `InvalidSettingsError` or
 * `StartupFailure`, whose messages say what to fix.
 */
export async function prepareStart(
  modules: Parameters<typeof checkSettings>[0],
  variables: EnvironmentVariables,
): Promise<void> {
  await checkSettings(modules, variables);
  const core = loadSettings(CoreSettings, variables);
  const database = loadSettings(DatabaseSettings, variables);
  await Promise.all(
    [postgresDependency(database), redisDependency(core.REDIS_URL)].map((dependency) =>
      waitForDependency(dependency, core.STARTUP_WAIT_MS),
    ),
  );
  await migrateOnStart(variables);
}

/**
 * Ends a process that could not start, with code 1: what the operator can fix in its own words, anything
 * else (a fault of the service) with its stack.
 */
export function exitOnStartFailure(error: unknown): never {
  if (error instanceof StartupFailure || error instanceof InvalidSettingsError) console.error(error.message);
  else console.error('Cannot start:', error);
  process.exit(1);
}
