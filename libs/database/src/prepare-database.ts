import { Logger } from '@nestjs/common';
import { Client, escapeIdentifier } from 'pg';
import { DataSource } from 'typeorm';
import { EnvironmentVariables, loadSettings } from '@app/core';
import { DatabaseSettings } from './database.settings';
import { ADVISORY_LOCKS } from './advisory-locks';
import { migrationDataSourceOptions } from './data-source-options';

const DUPLICATE_DATABASE = '42P04';

async function createDatabaseIfMissing(databaseUrl: string, logger: Logger): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    await client.query(`CREATE DATABASE ${escapeIdentifier(name)}`);
    logger.log(`created database ${name}`);
  } catch (error) {
    if ((error as { code?: string }).code !== DUPLICATE_DATABASE) throw error;
  } finally {
    await client.end();
  }
}

/** How often a process that waits for another's migrations asks for the lock again. */
const LOCK_POLL_MS = 200;

/**
 * Takes the migrations' lock by asking again and again rather than waiting inside one statement: a
 * statement waiting for the lock would hold a snapshot all along, and CREATE INDEX CONCURRENTLY in the
 * running migration waits for every snapshot older than its own, so the two processes would wait for each
 * other for good (PostgreSQL sees no deadlock: the lock is held by another connection than the migration's).
 */
async function waitForMigrationLock(lock: Client): Promise<void> {
  for (;;) {
    const { rows } = await lock.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
      ADVISORY_LOCKS.migrations,
    ]);
    if (rows[0]!.locked) return;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

/** Creates the database when missing and applies pending migrations, one process at a time. */
export async function prepareDatabase(settings: DatabaseSettings): Promise<void> {
  const logger = new Logger('Database');
  await createDatabaseIfMissing(settings.directUrl, logger);

  const lock = new Client({ connectionString: settings.directUrl, connectionTimeoutMillis: 5000 });
  await lock.connect();
  const dataSource = new DataSource(migrationDataSourceOptions(settings));
  try {
    await waitForMigrationLock(lock);
    await dataSource.initialize();
    const applied = await dataSource.runMigrations();
    for (const migration of applied) logger.log(`applied migration ${migration.name}`);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await lock.end();
  }
}

/** At a process's start, unless DATABASE_MIGRATE_ON_START is off: creates the database if missing and migrates it. */
export async function migrateOnStart(variables: EnvironmentVariables): Promise<void> {
  const settings = loadSettings(DatabaseSettings, variables);
  if (settings.DATABASE_MIGRATE_ON_START) await prepareDatabase(settings);
}
