import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Every e2e suite (and every process it starts) uses a dedicated database and Redis db.
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/pet_adoption_test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';
/**
 * Set by CI's cluster run (`host:port`, comma-separated): the apps and the suites use this Redis Cluster
 * instead of TEST_REDIS_URL. A cluster has only db 0, so it must serve the test run alone: global setup
 * empties every node of it.
 */
export const TEST_REDIS_CLUSTER_NODES = process.env.TEST_REDIS_CLUSTER_NODES;

/** Settings that point a process at one Redis at `url`, whichever Redis the suites use. */
export const singleRedisAt = (url: string) => ({ REDIS_URL: url, REDIS_CLUSTER_NODES: '' });

/**
 * Set by CI's pooler run: the apps under test reach PostgreSQL through PgBouncer in transaction mode, while
 * the suites' setup and fixtures keep the direct address (they take session locks and set sessions up).
 */
const POOLED_DATABASE_URL = process.env.TEST_POOLED_DATABASE_URL;

/**
 * Set by CI's replica run: a streaming replica of the test PostgreSQL (its server's address), to which the
 * apps under test send their reads that may lag. The suites' databases reach it by replication.
 */
export const TEST_DATABASE_REPLICA_URL = process.env.TEST_DATABASE_REPLICA_URL;

/** The replica's address for the database of `databaseUrl`, or none where no replica runs. */
export function replicaSettings(databaseUrl: string): Record<string, string> {
  if (!TEST_DATABASE_REPLICA_URL) return {};
  const replica = new URL(TEST_DATABASE_REPLICA_URL);
  replica.pathname = new URL(databaseUrl).pathname;
  return { DATABASE_REPLICA_URLS: replica.toString() };
}

Object.assign(process.env, {
  APP_ENV: 'development',
  DATABASE_URL: POOLED_DATABASE_URL ?? TEST_DATABASE_URL,
  ...(POOLED_DATABASE_URL && { DATABASE_POOL_MODE: 'transaction', DATABASE_DIRECT_URL: TEST_DATABASE_URL }),
  ...replicaSettings(TEST_DATABASE_URL),
  ...(TEST_REDIS_CLUSTER_NODES
    ? { REDIS_CLUSTER_NODES: TEST_REDIS_CLUSTER_NODES, REDIS_URL: '' }
    : { REDIS_URL: TEST_REDIS_URL, REDIS_CLUSTER_NODES: '' }),
  DATABASE_MIGRATE_ON_START: 'false',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  // Every suite calls from 127.0.0.1, so per-IP limits would couple them; the rate-limiting suites set their own.
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
  RATE_LIMIT_SIGNUP_PER_HOUR: '100000',
  // Uploads of suites that do not choose a directory of their own stay out of the working tree.
  PHOTO_STORAGE_DIR: join(tmpdir(), 'pet-adoption-test-photos'),
  // Processes the suites start with APP_ENV=production need one.
  WEBHOOK_SECRETS_KEY: Buffer.alloc(32, 'test').toString('base64'),
  EMAIL_UNSUBSCRIBE_KEY: Buffer.alloc(32, 'unsubscribe').toString('base64'),
});

/**
 * What a process started with APP_ENV=production needs beyond the test environment (docs/operations.md's
 * checklist): public addresses that production refuses to leave on localhost, and a mail server.
 */
export const PRODUCTION_ENV = {
  APP_ENV: 'production',
  PUBLIC_BASE_URL_PRODUCTION: 'https://pets.test/v1',
  PUBLIC_MESSAGES_URL: 'https://messages.pets.test',
  PHOTO_PUBLIC_BASE_URL: 'https://pets.test/media',
  EMAIL_TRANSPORT: 'smtp',
  SMTP_URL: 'smtp://127.0.0.1:2525',
};
