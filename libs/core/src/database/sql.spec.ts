import type { DataSource } from 'typeorm';
import { Sql } from './sql';

function sqlWithRecordingPool() {
  const sent: Array<{ name?: string; text: string; values: unknown[] }> = [];
  const pool = {
    query: async (config: (typeof sent)[number]) => {
      sent.push(config);
      return { rows: [] };
    },
  };
  return { sql: new Sql({ driver: { master: pool } } as unknown as DataSource), sent };
}

describe('Sql', () => {
  it('runs each text as one named prepared statement', async () => {
    const { sql, sent } = sqlWithRecordingPool();
    await sql.rows('SELECT 1 WHERE $1', [1]);
    await sql.rows('SELECT 2');
    await sql.rows('SELECT 1 WHERE $1', [2]);

    expect(sent.map(({ name, text }) => [name, text])).toEqual([
      ['sql_1', 'SELECT 1 WHERE $1'],
      ['sql_2', 'SELECT 2'],
      ['sql_1', 'SELECT 1 WHERE $1'],
    ]);
    expect(sent[2]!.values).toEqual([2]);
  });

  it('stops preparing new texts past its cap, and runs them unnamed', async () => {
    const { sql, sent } = sqlWithRecordingPool();
    for (let i = 0; i < 201; i++) await sql.query(`SELECT ${i}`);
    await sql.query('SELECT 0');

    expect(sent[199]!.name).toBe('sql_200');
    expect(sent[200]).toMatchObject({ name: undefined, text: 'SELECT 200' });
    expect(sent[201]!.name).toBe('sql_1');
  });
});
