import { loadSettings } from '@app/core';
import { DatabaseSettings, dataSourceOptions, sql as statement } from '@app/database';
import { Pool } from 'pg';
import { withDatabase } from '../support/database';
import { sqlOnPool } from '../support/doubles';
import { TEST_DATABASE_URL } from '../support/test-env';

describe('Sql on PostgreSQL', () => {
  // The apps' pool settings, on one connection, so each call runs where the first prepared its statement.
  const { extra } = dataSourceOptions(loadSettings(DatabaseSettings, { DATABASE_URL: TEST_DATABASE_URL }));
  const pool = new Pool({ ...extra, connectionString: TEST_DATABASE_URL, max: 1 });
  const sql = sqlOnPool(pool);

  beforeAll(() =>
    withDatabase(async (client) => {
      await client.query('DROP TABLE IF EXISTS sql_spec_counts');
      await client.query('CREATE TABLE sql_spec_counts (id int PRIMARY KEY, count int NOT NULL)');
      await client.query('INSERT INTO sql_spec_counts VALUES (1, 7)');
    }),
  );
  afterAll(async () => {
    await pool.end();
    await withDatabase((client) => client.query('DROP TABLE sql_spec_counts'));
  });

  it('keeps a prepared statement answering after a migration changes the type of a column it returns', async () => {
    const select = statement`SELECT id, count FROM sql_spec_counts WHERE id = ${1}`;
    expect(await sql.rows(select)).toEqual([{ id: 1, count: 7 }]);

    await withDatabase((client) => client.query('ALTER TABLE sql_spec_counts ALTER COLUMN count TYPE text'));

    expect(await sql.rows(select)).toEqual([{ id: 1, count: '7' }]);
    expect(await sql.rows(select)).toEqual([{ id: 1, count: '7' }]);
  });

  it('plans each run of a prepared statement for its own values', async () => {
    // A generic plan would serve a page of a rare status by scanning the primary key.
    expect(await sql.rows(statement`SHOW plan_cache_mode`)).toEqual([{ plan_cache_mode: 'force_custom_plan' }]);
  });

  it('never compiles a statement with JIT', async () => {
    // The batched page read's estimates cross JIT's cost threshold; compiling would take far longer than the read.
    expect(await sql.rows(statement`SHOW jit`)).toEqual([{ jit: 'off' }]);
  });
});
