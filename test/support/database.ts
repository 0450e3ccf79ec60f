import { randomInt } from 'node:crypto';
import { loadSettings } from '@app/core';
import { DatabaseSettings, prepareDatabase } from '@app/database';
import { Client, escapeIdentifier, escapeLiteral } from 'pg';
import { waitFor } from './processes';
import { TEST_DATABASE_URL } from './test-env';

/** A direct connection for assertions on what was stored (in the shared test database by default). */
export async function withDatabase<T>(
  run: (client: Client) => Promise<T>,
  databaseUrl = TEST_DATABASE_URL,
): Promise<T> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Connections to the test database, other than the asking one, that meet `condition`. */
export function otherSessions(condition = 'true'): Promise<number> {
  return withDatabase(async (client) => {
    const { rows } = await client.query<{ sessions: string }>(
      `SELECT count(*) AS sessions FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND ${condition}`,
    );
    return Number(rows[0]!.sessions);
  });
}

/**
 * Reads PostgreSQL's statistics of the test database (`pg_stat_*`) once no other connection to it is
 * left: a connection publishes what it counted only after some idle time, and at the latest when it ends.
 */
export async function statisticsOnceAlone<T>(read: (client: Client) => Promise<T>): Promise<T> {
  await waitFor(async () => (await otherSessions()) === 0, 10000, 'the other connections to the test database to end');
  return withDatabase(read);
}

/** The test database's URL, for connections that plan with `settings` (so that a statement visits rows in a known order). */
export function testDatabasePlanning(settings: string[]): string {
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', settings.map((setting) => `-c ${setting}`).join(' '));
  return url.toString();
}

/** Planner settings under which a statement visits rows in index order, or in the order they were stored. */
export const SCAN_BY_ID = ['enable_seqscan=off', 'enable_bitmapscan=off'];
export const SCAN_BY_HEAP = ['enable_indexscan=off', 'enable_indexonlyscan=off', 'enable_bitmapscan=off'];
/** A join with a list of ids then visits the rows in the list's order. */
export const JOIN_BY_LIST = ['enable_hashjoin=off', 'enable_mergejoin=off'];

/** Deadlocks PostgreSQL has counted in the test database. */
export function deadlocksSoFar(): Promise<number> {
  return statisticsOnceAlone(async (client) => {
    const { rows } = await client.query<{ deadlocks: string }>(
      'SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(rows[0]!.deadlocks);
  });
}

const waitingForLocks = () => otherSessions(`wait_event_type = 'Lock'`);

/**
 * Runs two batched updates that both need the row of `table` with the columns of `key` while a
 * transaction holds it: the first starts and waits for the row, then the second starts and waits too,
 * then the row is let go.
 */
export async function meetBehindHeldRow(
  table: string,
  key: Record<string, unknown>,
  first: () => Promise<unknown>,
  second: () => Promise<unknown>,
): Promise<void> {
  const where = Object.keys(key)
    .map((column, index) => `${column} = $${index + 1}`)
    .join(' AND ');
  await withDatabase(async (holder) => {
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM ${table} WHERE ${where} FOR UPDATE`, Object.values(key));
    const firstDone = first();
    await waitFor(async () => (await waitingForLocks()) === 1, 5000, 'the first batch to wait for the held row');
    const secondDone = second();
    await waitFor(async () => (await waitingForLocks()) === 2, 5000, 'the second batch to wait for it too');
    await holder.query('COMMIT');
    await Promise.all([firstDone, secondDone]);
  });
}

/** The server's maintenance database, from which databases are created and dropped. */
function maintenanceUrl(): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = '/postgres';
  return url.toString();
}

export interface SuiteDatabase {
  url: string;
  drop: () => Promise<void>;
}

/**
 * A migrated database of the suite's own, beside the shared test database, for a suite that asserts
 * on every row of a table (the pets catalogue is shared by every account). Its account and key ids
 * start at a random point far from the shared database's, because Redis, where the rate limits count
 * per account and key id, stays shared.
 */
export async function suiteDatabase(suite: string): Promise<SuiteDatabase> {
  const { url, drop } = unpreparedSuiteDatabase(suite);
  await drop();
  await prepareDatabase(loadSettings(DatabaseSettings, { DATABASE_URL: url }));
  const firstId = randomInt(1e9, 2 ** 47);
  await withDatabase(async (client) => {
    for (const table of ['accounts', 'api_keys']) {
      await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), $2)`, [table, firstId]);
    }
  }, url);
  return { url, drop };
}

/**
 * The address of a database of the suite's own and how to drop it, for a process that creates and migrates
 * it as a first start does.
 */
export function unpreparedSuiteDatabase(suite: string): SuiteDatabase {
  const url = new URL(TEST_DATABASE_URL);
  const name = `${decodeURIComponent(url.pathname.slice(1))}_${suite}`;
  url.pathname = `/${name}`;
  const drop = () =>
    withDatabase(async (admin) => {
      await admin.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(name)} WITH (FORCE)`);
    }, maintenanceUrl());
  return { url: url.toString(), drop };
}

/** An empty database of the suite's own (no migrations run), for a suite that migrates it step by step. */
export async function emptySuiteDatabase(suite: string): Promise<SuiteDatabase> {
  const database = unpreparedSuiteDatabase(suite);
  await database.drop();
  const name = decodeURIComponent(new URL(database.url).pathname.slice(1));
  await withDatabase((admin) => admin.query(`CREATE DATABASE ${escapeIdentifier(name)}`), maintenanceUrl());
  return database;
}

export function truncatePets(databaseUrl: string): Promise<void> {
  return withDatabase(async (client) => {
    await client.query('TRUNCATE photos, pets RESTART IDENTITY');
  }, databaseUrl);
}

/**
 * Whether some statement waits for the pets' change clock (libs/pets/src/pet-changes.ts): a pet's insert or
 * change held behind another's commit. From a connection of its own: a transaction sees pg_stat_activity as
 * it was when first read.
 */
export function waitsForPetChangeClock(databaseUrl = TEST_DATABASE_URL): Promise<boolean> {
  return withDatabase(async (client) => {
    const { rows } = await client.query(
      `SELECT count(*) AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%pet_change_clock%'`,
    );
    return Number(rows[0].waiting) > 0;
  }, databaseUrl);
}

export interface InsertGate {
  /** Whether the gated INSERT is waiting at the gate. */
  isHolding(): Promise<boolean>;
  /** Whether some connection waits for the advisory lock `key`. */
  waitsForLock(key: number): Promise<boolean>;
  /** Lets the held INSERT go on to its commit. */
  open(): Promise<void>;
  /** Opens the gate if still shut, and removes it. */
  remove(): Promise<void>;
}

/**
 * Holds an INSERT into `table` of a row whose `column` is `value` uncommitted, its keys drawn, until
 * the gate opens: a BEFORE INSERT trigger waits for a lock the gate's own transaction holds.
 */
export async function shutInsertGate(
  table: 'pets' | 'messages',
  column: string,
  value: string,
  databaseUrl = TEST_DATABASE_URL,
): Promise<InsertGate> {
  const gate = new Client({ connectionString: databaseUrl });
  await gate.connect();
  await gate.query(`
    CREATE TABLE insert_gate ();
    CREATE FUNCTION wait_at_insert_gate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.${column} = ${escapeLiteral(value)} THEN LOCK TABLE insert_gate IN SHARE MODE; END IF;
        RETURN NEW;
      END $$;
    CREATE TRIGGER insert_gate BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION wait_at_insert_gate();`);
  await gate.query('BEGIN; LOCK TABLE insert_gate IN EXCLUSIVE MODE');
  const waiting = async (condition: string, parameters: unknown[] = []) =>
    (
      await gate.query(
        `SELECT 1 FROM pg_locks
          WHERE database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND NOT granted AND ${condition}`,
        parameters,
      )
    ).rowCount! > 0;
  return {
    isHolding: () => waiting(`locktype = 'relation' AND relation = 'insert_gate'::regclass`),
    // A bigint advisory key shows in pg_locks as its high and low 32 bits.
    waitsForLock: (key) =>
      waiting(`locktype = 'advisory' AND objsubid = 1 AND (classid::bigint << 32 | objid::bigint) = $1`, [key]),
    async open() {
      await gate.query('COMMIT');
    },
    async remove() {
      try {
        await gate.query('ROLLBACK');
        await gate.query(
          `DROP TRIGGER insert_gate ON ${table}; DROP FUNCTION wait_at_insert_gate(); DROP TABLE insert_gate`,
        );
      } finally {
        await gate.end();
      }
    },
  };
}
