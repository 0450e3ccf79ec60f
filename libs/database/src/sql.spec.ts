import { EventEmitter } from 'node:events';
import type { DataSource } from 'typeorm';
import { Sql } from './sql';
import { SqlFragment, sql as statement } from './sql-template';

type Sent = { name?: string; text: string; values: unknown[] };

/** A pool that records what it is sent; `refuse` may throw instead of answering. */
function sqlWithRecordingPool(refuse: (config: Sent) => Error | undefined = () => undefined) {
  const sent: Sent[] = [];
  const pool = {
    query: async (config: Sent) => {
      sent.push(config);
      const error = refuse(config);
      if (error) throw error;
      return { rows: [] };
    },
  };
  return { sql: new Sql({ driver: { master: pool } } as unknown as DataSource), sent };
}

describe('Sql', () => {
  it('runs each text as one named prepared statement', async () => {
    const { sql, sent } = sqlWithRecordingPool();
    await sql.rows(statement`SELECT 1 WHERE ${1}`);
    await sql.rows(statement`SELECT 2`);
    await sql.rows(statement`SELECT 1 WHERE ${2}`);

    expect(sent.map(({ name, text }) => [name, text])).toEqual([
      ['sql_1', 'SELECT 1 WHERE $1'],
      ['sql_2', 'SELECT 2'],
      ['sql_1', 'SELECT 1 WHERE $1'],
    ]);
    expect(sent[2]!.values).toEqual([2]);
  });

  it('runs a statement as its text and values, nested fragments spliced in', async () => {
    const { sql, sent } = sqlWithRecordingPool();
    await sql.rows(statement`SELECT 1 WHERE ${1} AND ${statement`${2}`}`);

    expect(sent).toEqual([{ name: 'sql_1', text: 'SELECT 1 WHERE $1 AND $2', values: [1, 2] }]);
  });

  it('stops preparing new texts past its cap, and runs them unnamed', async () => {
    const { sql, sent } = sqlWithRecordingPool();
    // Texts that differ, as only texts written in the code can: the tag keeps values out of them.
    const select = (i: number) => SqlFragment.of([`SELECT ${i}`], []);
    for (let i = 0; i < 201; i++) await sql.query(select(i));
    await sql.query(select(0));

    expect(sent[199]!.name).toBe('sql_200');
    expect(sent[200]).toMatchObject({ name: undefined, text: 'SELECT 200' });
    expect(sent[201]!.name).toBe('sql_1');
  });

  const resultTypeChanged = () =>
    Object.assign(new Error('cached plan must not change result type'), {
      code: '0A000',
      routine: 'RevalidateCachedQuery',
    });

  it('prepares a statement again under a new name when PostgreSQL says its result type changed', async () => {
    const { sql, sent } = sqlWithRecordingPool(({ name }) => (name === 'sql_1' ? resultTypeChanged() : undefined));

    await expect(sql.rows(statement`SELECT 1`)).resolves.toEqual([]);
    await sql.rows(statement`SELECT 1`);

    expect(sent.map(({ name }) => name)).toEqual(['sql_1', 'sql_2', 'sql_2']);
  });

  it('gives one new name to calls refused together', async () => {
    const { sql, sent } = sqlWithRecordingPool(({ name }) => (name === 'sql_1' ? resultTypeChanged() : undefined));

    await Promise.all([sql.rows(statement`SELECT 1`), sql.rows(statement`SELECT 1`), sql.rows(statement`SELECT 1`)]);

    expect(sent.map(({ name }) => name)).toEqual(['sql_1', 'sql_1', 'sql_1', 'sql_2', 'sql_2', 'sql_2']);
  });

  it('passes other errors on without running the statement again', async () => {
    const { sql, sent } = sqlWithRecordingPool(() =>
      Object.assign(new Error('cached plan must not change result type'), { code: '0A000', routine: 'other' }),
    );

    await expect(sql.query(statement`SELECT 1`)).rejects.toMatchObject({ code: '0A000' });
    expect(sent).toHaveLength(1);
  });

  describe('transaction', () => {
    /** A pooled connection whose ROLLBACK fails when `rollbackFails`, as on a connection that was cut. */
    function sqlWithOneConnection(rollbackFails: boolean) {
      // An emitter, as pg's client is: an 'error' it emits with no listener throws.
      const client = Object.assign(new EventEmitter(), {
        query: jest.fn(async (text: string) => {
          if (text === 'ROLLBACK' && rollbackFails) throw new Error('Connection terminated unexpectedly');
          return { rows: [] };
        }),
        release: jest.fn(),
      });
      const pool = { connect: async () => client };
      return { sql: new Sql({ driver: { master: pool } } as unknown as DataSource), client };
    }

    /** What the connection was sent: transaction control as text, statements by their prepared name. */
    const sentTo = (client: { query: jest.Mock }) =>
      client.query.mock.calls.map(([sent]: [string | Sent]) => (typeof sent === 'string' ? sent : sent.name));

    it('gives its connection back to the pool after COMMIT and after ROLLBACK', async () => {
      const { sql, client } = sqlWithOneConnection(false);
      await sql.transaction(() => sql.query(statement`SELECT 1`));
      await expect(sql.transaction(() => Promise.reject(new Error('work failed')))).rejects.toThrow('work failed');

      expect(sentTo(client)).toEqual(['BEGIN', 'sql_1', 'COMMIT', 'BEGIN', 'ROLLBACK']);
      expect(client.release.mock.calls).toEqual([[undefined], [undefined]]);
    });

    it('closes its connection instead when ROLLBACK fails, and still throws the work’s own error', async () => {
      const { sql, client } = sqlWithOneConnection(true);
      const failure = new Error('work failed');

      await expect(sql.transaction(() => Promise.reject(failure))).rejects.toBe(failure);
      expect(client.release).toHaveBeenCalledWith(
        expect.objectContaining({ message: 'Connection terminated unexpectedly' }),
      );
    });

    it('hears a connection lost between two statements, and closes it instead of giving it back', async () => {
      const { sql, client } = sqlWithOneConnection(true);
      const lost = new Error('Connection terminated unexpectedly');
      client.query.mockImplementation(async (text: unknown) => {
        if (typeof text === 'string') return { rows: [] };
        throw new Error('Client has encountered a connection error and is not queryable');
      });

      await expect(
        sql.transaction(async () => {
          client.emit('error', lost);
          await sql.query(statement`SELECT 1`);
        }),
      ).rejects.toThrow('not queryable');
      expect(client.release).toHaveBeenCalledWith(lost);
      expect(client.listenerCount('error')).toBe(0);
    });

    it('runs a statement refused for its changed result type once, failing the transaction it aborted', async () => {
      const { sql, client } = sqlWithOneConnection(false);
      client.query.mockImplementation(async (text: unknown) => {
        if (typeof text === 'string') return { rows: [] };
        throw Object.assign(new Error('cached plan must not change result type'), { routine: 'RevalidateCachedQuery' });
      });

      await expect(sql.transaction(() => sql.rows(statement`SELECT 1`))).rejects.toMatchObject({
        routine: 'RevalidateCachedQuery',
      });
      expect(sentTo(client)).toEqual(['BEGIN', 'sql_1', 'ROLLBACK']);
    });
  });
});
