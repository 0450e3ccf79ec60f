import './library-aliases';
import { Client, escapeIdentifier } from 'pg';
import { Redis } from 'ioredis';
import { loadSettings } from '../../libs/core/src';
import { DatabaseSettings, prepareDatabase } from '../../libs/database/src';
import { assertFreshBuild } from './fresh-build';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from './test-env';

/**
 * Checks that the build is current, then recreates the test database from the migrations and empties
 * the test Redis db, once per run.
 */
export default async function globalSetup(): Promise<void> {
  assertFreshBuild();
  const url = new URL(TEST_DATABASE_URL);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name.includes('test')) throw new Error(`refusing to reset ${name}: the test database name must contain "test"`);

  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(name)} WITH (FORCE)`);
  await admin.end();
  await prepareDatabase(loadSettings(DatabaseSettings, { DATABASE_URL: TEST_DATABASE_URL }));

  const redis = new Redis(TEST_REDIS_URL);
  await redis.flushdb();
  redis.disconnect();
}
