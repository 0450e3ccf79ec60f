import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Client, escapeIdentifier } from 'pg';
import { Redis } from 'ioredis';
import { runNodeForJson, waitFor } from './processes';
import { SEED_ORGANIZATIONS, SEED_PETS } from './seeded-pets';

/** Where a bench or soak keeps its state: a database and a Redis db of its own. */
export interface Stores {
  databaseUrl: string;
  redisUrl: string;
}

/** The database and Redis db named, on the servers of `BENCH_POSTGRES` and `BENCH_REDIS` (`host:port`). */
export function storesFor(database: string, redisDb: number): Stores {
  const postgres = process.env.BENCH_POSTGRES ?? '127.0.0.1:5432';
  const redis = process.env.BENCH_REDIS ?? '127.0.0.1:6379';
  return {
    databaseUrl: `postgres://postgres@${postgres}/${database}`,
    redisUrl: `redis://${redis}/${redisDb}`,
  };
}

/** Names that hold real data are never dropped by accident. */
function assertDisposable(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!/_(bench|soak)(_\d+)?$/.test(name)) throw new Error(`refusing to reset ${name}: not a bench or soak database`);
  return name;
}

/** Drops the database (the apps' start-up creates and migrates it again) and empties the Redis db. */
export async function resetStores(stores: Stores): Promise<void> {
  const name = assertDisposable(stores.databaseUrl);
  const url = new URL(stores.databaseUrl);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
  const redis = new Redis(stores.redisUrl);
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

export async function withClient<T>(stores: Stores, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: stores.databaseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * Brings the planner's statistics up to date when the server runs without autovacuum (CI's configuration turns
 * it off), as autovacuum would over a run whose writes add hundreds of thousands of pets: with the statistics of
 * the seeded catalogue, searches for a word no statistic holds walk the whole primary key.
 */
export async function analyzeWithoutAutovacuum(stores: Stores): Promise<void> {
  await withClient(stores, async (client) => {
    const { rows } = await client.query<{ autovacuum: string }>('SHOW autovacuum');
    if (rows[0]!.autovacuum === 'off') await client.query('ANALYZE');
  });
}

/** Events the dispatcher has yet to send to webhook endpoints, and pet events the matcher has yet to match. */
const UNDISPATCHED = `SELECT FROM events WHERE dispatched_at IS NULL`;
const UNMATCHED = `SELECT FROM events WHERE matched_at IS NULL AND type IN ('pet.created', 'pet.updated', 'pet.deleted')`;

/** How many rows a `SELECT FROM …` finds. */
export const countOf = (stores: Stores, found: string, params: unknown[] = []) =>
  withClient(stores, async (client) => {
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM (${found}) e`, params);
    return Number(rows[0]!.n);
  });

/** Pet events the saved-search matcher has yet to match. */
export const unmatchedPetEvents = (stores: Stores): Promise<number> => countOf(stores, UNMATCHED);

/** What the worker has yet to work through; a pet event is counted in both until both are done. */
export interface OutboxBacklog {
  toDispatch: number;
  toMatch: number;
}

export async function outboxBacklog(stores: Stores): Promise<OutboxBacklog> {
  return { toDispatch: await countOf(stores, UNDISPATCHED), toMatch: await unmatchedPetEvents(stores) };
}

/** Waits, on one connection, until the worker has dispatched and matched every event. */
export async function waitForEmptyOutbox(stores: Stores, timeoutMs: number): Promise<void> {
  await withClient(stores, (client) =>
    waitFor(
      async () => {
        const { rows } = await client.query<{ empty: boolean }>(
          `SELECT NOT EXISTS (${UNDISPATCHED}) AND NOT EXISTS (${UNMATCHED}) AS empty`,
        );
        return rows[0]!.empty;
      },
      timeoutMs,
      'the worker to work through the outbox',
    ),
  );
}

/** Runs the operator CLI (which creates and migrates the database when needed) and parses its JSON. */
function cli<T>(stores: Stores, args: string[]): Promise<T> {
  return runNodeForJson(`cli ${args.join(' ')}`, join('apps', 'cli', 'src', 'main.js'), args, {
    env: { DATABASE_URL: stores.databaseUrl, REDIS_URL: stores.redisUrl },
  });
}

export interface BenchAccount {
  accountId: number;
  key: string;
}

/** An account made through the operator CLI; enterprise limits when given, else the free plan. */
export async function createAccount(
  stores: Stores,
  email: string,
  enterprise?: { perMinute: number; perDay: number },
): Promise<BenchAccount> {
  const created = await cli<BenchAccount>(stores, ['create-account', email]);
  if (enterprise) {
    await cli(stores, [
      'set-plan',
      email,
      'enterprise',
      '--per-minute',
      String(enterprise.perMinute),
      '--per-day',
      String(enterprise.perDay),
    ]);
  }
  return created;
}

/** Seeds `count` pets in one statement (SEED_PETS), as `seededPet` describes them; on an empty table their ids are 1..count. */
export async function seedPets(stores: Stores, count: number): Promise<void> {
  await withClient(stores, async (client) => {
    await client.query(SEED_ORGANIZATIONS);
    await client.query(SEED_PETS, [count]);
    // A table fresh from one bulk insert has no statistics or visibility map yet; a live one would. The
    // inserts commit synchronously: VACUUM marks no page all-visible while its rows' commit is not yet flushed.
    await client.query('VACUUM ANALYZE pets, organizations, organization_animal_counts, accounts');
  });
}

/** The secret of a seeded account's key: deterministic, in the key format, never used outside the bench. */
export const seededSecret = (accountId: number) =>
  `pet_live_${createHash('md5').update(`bench-key-${accountId}`).digest('hex')}`;

/**
 * Seeds `count` enterprise accounts (limits that never throttle) with one key each, all in SQL, the
 * key hash computed as the service does (SHA-256 of the secret). Returns their keys.
 */
export async function seedAccounts(stores: Stores, count: number): Promise<string[]> {
  return withClient(stores, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO accounts (email, plan, custom_per_minute, custom_per_day)
       SELECT 'seeded-' || i || '@bench.example', 'enterprise', 1000000000, 2000000000
         FROM generate_series(1, $1::int) AS i
       RETURNING id`,
      [count],
    );
    await client.query(
      `INSERT INTO api_keys (account_id, name, prefix, key_hash)
       SELECT id, 'bench', left(secret, 12), sha256(convert_to(secret, 'UTF8'))
         FROM (SELECT id, 'pet_live_' || md5('bench-key-' || id) AS secret
                 FROM accounts WHERE email LIKE 'seeded-%@bench.example') AS seeded`,
    );
    await client.query('VACUUM ANALYZE accounts, api_keys');
    return rows.map((row) => seededSecret(Number(row.id)));
  });
}

/**
 * Gives `count` available seeded pets (which have no lister) to the account as their lister, for the
 * store's scenarios: orders can only be placed for a listed pet. Returns their ids.
 */
export async function listSeededPets(stores: Stores, listerAccountId: number, count: number): Promise<number[]> {
  return withClient(stores, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `UPDATE pets SET lister_account_id = $1
        WHERE id IN (SELECT id FROM pets WHERE status = 'available' AND lister_account_id IS NULL ORDER BY id LIMIT $2)
       RETURNING id`,
      [listerAccountId, count],
    );
    return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  });
}

/** The ids of the pets an account lists, in order. */
export async function listedPetIds(stores: Stores, listerAccountId: number): Promise<number[]> {
  return withClient(stores, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      'SELECT id FROM pets WHERE lister_account_id = $1 ORDER BY id',
      [listerAccountId],
    );
    return rows.map((row) => Number(row.id));
  });
}

/** Forgets every order and makes its pet available again: each run of a store scenario finds its pets unordered. */
export async function resetOrders(stores: Stores): Promise<void> {
  await withClient(stores, async (client) => {
    await client.query(
      `UPDATE pets SET status = 'available', open_order_id = NULL FROM orders WHERE pets.id = orders.pet_id`,
    );
    await client.query('TRUNCATE orders');
  });
}
