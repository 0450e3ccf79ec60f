import { Client, escapeLiteral } from 'pg';
import { TEST_DATABASE_URL } from './test-env';

/** A direct connection for assertions on what was stored. */
export async function withDatabase<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export function truncatePets(): Promise<void> {
  return withDatabase(async (client) => {
    await client.query('TRUNCATE pets RESTART IDENTITY');
  });
}

export interface InsertGate {
  /** Whether a connection to the test database waits on a lock of this kind. */
  waitingFor(lock: 'relation' | 'advisory'): Promise<boolean>;
  /** Lets the held INSERT go on to its commit. */
  open(): Promise<void>;
  /** Opens the gate if still shut, and removes it. */
  remove(): Promise<void>;
}

/**
 * Holds an INSERT into `table` of a row whose `column` is `value` uncommitted, its keys drawn, until
 * the gate opens: a BEFORE INSERT trigger waits for a lock the gate's own transaction holds.
 */
export async function shutInsertGate(table: 'pets' | 'messages', column: string, value: string): Promise<InsertGate> {
  const gate = new Client({ connectionString: TEST_DATABASE_URL });
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
  return {
    async waitingFor(lock) {
      // pg_stat_activity's query text can lag behind a prepared statement's execution: go by wait event.
      const { rowCount } = await gate.query(
        'SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event = $1',
        [lock],
      );
      return rowCount! > 0;
    },
    async open() {
      await gate.query('COMMIT');
    },
    async remove() {
      await gate.query('ROLLBACK');
      await gate.query(
        `DROP TRIGGER insert_gate ON ${table}; DROP FUNCTION wait_at_insert_gate(); DROP TABLE insert_gate`,
      );
      await gate.end();
    },
  };
}
