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

  it('writes a literal into the text, not as a parameter, quoted as PostgreSQL wants it', () => {
    const statement = sql`SELECT jsonb_build_object(${sql.literal("it's")}, ${1})`;

    expect(statement.text).toBe("SELECT jsonb_build_object('it''s', $1)");
    expect(statement.values).toEqual([1]);
  });

  it('numbers a fragment used twice where each use stands, whether or not it was read before', () => {
    const byCategory = sql`category_id = ${3}`;
    expect(byCategory.text).toBe('category_id = $1');
    const statement = sql`SELECT id FROM pets WHERE ${byCategory} OR (${byCategory} AND sex = ${'male'})`;

    expect(statement.text).toBe('SELECT id FROM pets WHERE category_id = $1 OR (category_id = $2 AND sex = $3)');
    expect(statement.values).toEqual([3, 3, 'male']);
    expect(byCategory.values).toEqual([3]);
  });

  it('joins any number of fragments', () => {
    const rows = sql.join(Array.from({ length: 50_000 }, (_, i) => sql`(${i})`));
    const statement = sql`INSERT INTO t (n) VALUES ${rows}`;

    expect(statement.values).toHaveLength(50_000);
    expect(statement.text.endsWith('($49999), ($50000)')).toBe(true);
  });

  it('contributes nothing for an empty fragment or an empty join', () => {
    expect(sql`SELECT 1${sql.empty}${sql.join([])}`.text).toBe('SELECT 1');
  });
});
