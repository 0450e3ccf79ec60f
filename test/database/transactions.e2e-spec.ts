import { Batcher, loadSettings } from '@app/core';
import { DatabaseSettings, dataSourceOptions, sql as statement } from '@app/database';
import { Pool } from 'pg';
import { withDatabase } from '../support/database';
import { sqlOnPool } from '../support/doubles';
import { TEST_DATABASE_URL } from '../support/test-env';

describe('Sql.transaction on PostgreSQL', () => {
  const { extra } = dataSourceOptions(loadSettings(DatabaseSettings, { DATABASE_URL: TEST_DATABASE_URL }));
  const pool = new Pool({ ...extra, connectionString: TEST_DATABASE_URL, max: 3 });
  const sql = sqlOnPool(pool);
  const insert = (name: string) => sql.query(statement`INSERT INTO transaction_spec_rows (name) VALUES (${name})`);
  const stored = async () =>
    withDatabase(async (client) =>
      (await client.query<{ name: string }>('SELECT name FROM transaction_spec_rows ORDER BY name')).rows.map(
        (row) => row.name,
      ),
    );

  beforeAll(() =>
    withDatabase(async (client) => {
      await client.query('DROP TABLE IF EXISTS transaction_spec_rows');
      await client.query('CREATE TABLE transaction_spec_rows (name text PRIMARY KEY CHECK (name <> $$refused$$))');
    }),
  );
  beforeEach(() => withDatabase((client) => client.query('TRUNCATE transaction_spec_rows')));
  afterAll(async () => {
    await pool.end();
    await withDatabase((client) => client.query('DROP TABLE transaction_spec_rows'));
  });

  it('commits every statement made inside it together, and gives back what the work returned', async () => {
    const result = await sql.transaction(async () => {
      await insert('a');
      await insert('b');
      // Not yet visible to other connections.
      expect(await stored()).toEqual([]);
      return 'done';
    });

    expect(result).toBe('done');
    expect(await stored()).toEqual(['a', 'b']);
  });

  it('rolls every statement back when the work throws, and rethrows its error', async () => {
    const failure = new Error('the rule refused it');
    await expect(
      sql.transaction(async () => {
        await insert('a');
        throw failure;
      }),
    ).rejects.toBe(failure);

    expect(await stored()).toEqual([]);
  });

  it('keeps the SQLSTATE of a statement that fails, and rolls back what came before it', async () => {
    const error = await sql
      .transaction(async () => {
        await insert('a');
        await insert('refused');
      })
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: '23514' });
    expect(await stored()).toEqual([]);
  });

  it('runs a nested call inside the outer transaction, which commits or rolls back the whole', async () => {
    await expect(
      sql.transaction(async () => {
        await sql.transaction(() => insert('inner'));
        await insert('outer');
        throw new Error('the outer work failed');
      }),
    ).rejects.toThrow('the outer work failed');
    expect(await stored()).toEqual([]);

    await sql.transaction(async () => {
      await sql.transaction(() => insert('inner'));
      await insert('outer');
    });
    expect(await stored()).toEqual(['inner', 'outer']);
  });

  it('gives its connection back to the pool whether it commits or rolls back', async () => {
    for (let i = 0; i < 5; i++) {
      await sql.transaction(() => insert(`committed ${i}`));
      await sql.transaction(() => insert('refused')).catch(() => undefined);
    }

    expect(pool.totalCount).toBeLessThanOrEqual(3);
    expect(pool.idleCount).toBe(pool.totalCount);
    expect(pool.waitingCount).toBe(0);
  });

  it('sees its own uncommitted rows, and leaves statements outside it on other connections', async () => {
    await sql.transaction(async () => {
      await insert('inside');
      const inside = await sql.rows(statement`SELECT name FROM transaction_spec_rows`);
      const outside = await withDatabase((client) => client.query('SELECT name FROM transaction_spec_rows'));
      expect(inside).toEqual([{ name: 'inside' }]);
      expect(outside.rows).toEqual([]);
    });
  });

  it('runs a batched call alone on its connection, never in a batch shared with other requests', async () => {
    const batches: string[][] = [];
    const batcher = new Batcher<string, string>(async (names) => {
      batches.push(names);
      for (const name of names) await insert(name);
      return names;
    }, 0);

    const outside = sql.batched(batcher, 'outside');
    await expect(
      sql.transaction(async () => {
        await expect(sql.batched(batcher, 'inside')).resolves.toBe('inside');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await expect(outside).resolves.toBe('outside');

    expect(batches).toHaveLength(2);
    expect(batches).toEqual(expect.arrayContaining([['inside'], ['outside']]));
    expect(await stored()).toEqual(['outside']);
  });

  it('refuses a statement made after its transaction ended, rather than run it on a connection in other hands', async () => {
    let late: Promise<unknown> | undefined;
    const { promise: transactionEnded, resolve: ended } = Promise.withResolvers<void>();
    await sql.transaction(async () => {
      // Made in the transaction's context, run once it has ended.
      late = transactionEnded.then(() => insert('late'));
    });
    ended();

    await expect(late).rejects.toThrow('its transaction had ended');
    expect(await stored()).toEqual([]);
  });
});
