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
  const url = new URL(TEST_DATABASE_URL);
  const name = `${decodeURIComponent(url.pathname.slice(1))}_${suite}`;
  url.pathname = `/${name}`;
  const drop = () =>
    withDatabase(async (admin) => {
      await admin.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(name)} WITH (FORCE)`);
    }, maintenanceUrl());
  await drop();
  await prepareDatabase(loadSettings(DatabaseSettings, { DATABASE_URL: url.toString() }));
  const firstId = randomInt(1e9, 2 ** 47);
  await withDatabase(async (client) => {
    for (const table of ['accounts', 'api_keys']) {
      await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), $2)`, [table, firstId]);
    }
  }, url.toString());
  return { url: url.toString(), drop };
}

export function truncatePets(databaseUrl: string): Promise<void> {
  return withDatabase(async (client) => {
    await client.query('TRUNCATE pets RESTART IDENTITY');
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
    (await gate.query(`SELECT 1 FROM pg_locks WHERE NOT granted AND ${condition}`, parameters)).rowCount! > 0;
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
