import { Logger } from '@nestjs/common';
import { Client, escapeIdentifier } from 'pg';
import { DataSource } from 'typeorm';
import type { Environment } from '@app/core';
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

/** Creates the database when missing and applies pending migrations, one process at a time. */
export async function prepareDatabase(env: Environment): Promise<void> {
  const logger = new Logger('Database');
  await createDatabaseIfMissing(env.DATABASE_URL, logger);

  const lock = new Client({ connectionString: env.DATABASE_URL, connectionTimeoutMillis: 5000 });
  await lock.connect();
  const dataSource = new DataSource(migrationDataSourceOptions(env));
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCKS.migrations]);
    await dataSource.initialize();
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    for (const migration of applied) logger.log(`applied migration ${migration.name}`);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await lock.end();
  }
}
