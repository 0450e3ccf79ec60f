import { sql } from './sql-template';

describe('sql', () => {
  it('makes each value a parameter, numbered in order', () => {
    const statement = sql`SELECT * FROM pets WHERE id = ${7} AND name = ${'Rex'}`;

    expect(statement.text).toBe('SELECT * FROM pets WHERE id = $1 AND name = $2');
    expect(statement.values).toEqual([7, 'Rex']);
  });

  it('numbers the values of nested fragments where they stand in the whole', () => {
    const byCategory = sql`category_id = ${3}`;
    const bySex = sql`sex = ${'female'}`;
    const statement = sql`SELECT id FROM pets WHERE status = ${'available'} AND ${sql.join([byCategory, bySex], sql` AND `)} LIMIT ${20}`;

    expect(statement.text).toBe('SELECT id FROM pets WHERE status = $1 AND category_id = $2 AND sex = $3 LIMIT $4');
    expect(statement.values).toEqual(['available', 3, 'female', 20]);
  });

  it('gives one text for one shape, whatever the values', () => {
    const page = (limit: number, after: number) => sql`SELECT id FROM pets WHERE id > ${after} LIMIT ${limit}`;

    expect(page(20, 0).text).toBe(page(100, 5000).text);
  });

  it('passes an array as one parameter, never as text', () => {
    const statement = sql`SELECT id FROM pets WHERE status = ANY (${['available', "x'); DROP TABLE pets; --"]}::text[])`;

    expect(statement.text).toBe('SELECT id FROM pets WHERE status = ANY ($1::text[])');
    expect(statement.values).toEqual([['available', "x'); DROP TABLE pets; --"]]);
  });

  it('quotes identifiers and joins with a comma by default', () => {
    const columns = sql.join([sql.identifier('id'), sql.identifier('weird"name')]);

    expect(sql`SELECT ${columns} FROM pets`.text).toBe('SELECT "id", "weird""name" FROM pets');
  });

  it('contributes nothing for an empty fragment or an empty join', () => {
    expect(sql`SELECT 1${sql.empty}${sql.join([])}`.text).toBe('SELECT 1');
  });
});
