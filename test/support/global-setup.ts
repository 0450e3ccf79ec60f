import './library-aliases';
import { Client, escapeIdentifier } from 'pg';
import { loadSettings } from '../../libs/core/src';
import { DatabaseSettings, prepareDatabase } from '../../libs/database/src';
import { assertFreshBuild } from './fresh-build';
import { everyNode, withTestRedis } from './redis';
import { TEST_DATABASE_URL } from './test-env';

/**
 * Checks that the build is current, then recreates the test database from the migrations and empties
 * the test Redis db (every node of a test cluster), once per run.
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

  await withTestRedis(async (redis) => {
    // A cluster client connects to its nodes as it learns them.
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    await Promise.all(everyNode(redis).map((node) => node.flushdb()));
  });
}
