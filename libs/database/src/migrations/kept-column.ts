import type { QueryRunner } from 'typeorm';
import { sql, SqlFragment } from '../sql-template';

/**
 * Steps of the migrations that store a column derived from others of its row, kept by a trigger: written
 * for a catalogue of a million pets that api processes keep serving, none holds the table's exclusive lock
 * for longer than a catalogue update, and each can run again, so a migration interrupted midway completes
 * when started again.
 */

/** Runs a statement written with the `sql` tag. */
export const runStatement = (queryRunner: QueryRunner, statement: SqlFragment) =>
  queryRunner.query(statement.text, [...statement.values]);

/** SQL the migration wrote itself (an expression, a condition), spliced in as it is. */
const written = (text: string) => SqlFragment.of([text], []);

/** Rows whose column one backfill statement writes: each batch holds its rows' locks only briefly. */
const BACKFILL_BATCH = 10_000;
/** Pages of a table one backfill statement reads: an 8 kB page holds a few to a few dozen rows. */
const BACKFILL_PAGES = 500;

export interface KeptColumn {
  table: string;
  column: string;
  type: string;
  /** The column's value, from the row being written (`NEW.`). */
  value: string;
  /** The columns it is derived from: the trigger runs when one of them is written. */
  writtenWith: string[];
}

/**
 * Adds the column (nullable: no rewrite) and the trigger that keeps it, `<table>_<column>`, in one short
 * transaction: from then on every row added, or whose source columns are written, gets its value.
 * Nothing is done when the column exists.
 */
export async function addKeptColumn(queryRunner: QueryRunner, kept: KeptColumn): Promise<void> {
  const [{ added }] = await runStatement(
    queryRunner,
    sql`SELECT count(*) > 0 AS added FROM information_schema.columns
         WHERE table_name = ${kept.table} AND column_name = ${kept.column}`,
  );
  if (added) return;
  const trigger = `${kept.table}_${kept.column}`;
  await queryRunner.startTransaction();
  try {
    await queryRunner.query(`ALTER TABLE ${kept.table} ADD COLUMN ${kept.column} ${kept.type}`);
    await queryRunner.query(`
      CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.${kept.column} := ${kept.value};
        RETURN NEW;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER ${trigger} BEFORE INSERT OR UPDATE OF ${kept.writtenWith.join(', ')} ON ${kept.table}
        FOR EACH ROW EXECUTE FUNCTION ${trigger}()`);
    await queryRunner.commitTransaction();
  } catch (error) {
    await queryRunner.rollbackTransaction();
    throw error;
  }
}

/**
 * Runs `UPDATE <table> SET <assignment>` on the rows `pending` selects, a range of ids per statement: for the
 * tables keyed by a sequence's numbers.
 */
export async function backfillByIds(
  queryRunner: QueryRunner,
  table: string,
  assignment: string,
  pending: string,
): Promise<void> {
  const rows = sql.identifier(table);
  const [{ last }] = await runStatement(queryRunner, sql`SELECT coalesce(max(id), 0) AS last FROM ${rows}`);
  for (let from = 0; from < Number(last); from += BACKFILL_BATCH) {
    await runStatement(
      queryRunner,
      sql`UPDATE ${rows} SET ${written(assignment)}
           WHERE id > ${from} AND id <= ${from + BACKFILL_BATCH} AND ${written(pending)}`,
    );
  }
}

/**
 * Runs `UPDATE <table> SET <assignment>` on the rows `pending` selects, a range of the table's pages per
 * statement (a TID range scan, which needs no index): for the tables without a sequence's numbers as their key.
 */
export async function backfillByPages(
  queryRunner: QueryRunner,
  table: string,
  assignment: string,
  pending: string,
): Promise<void> {
  const rows = sql.identifier(table);
  const [{ pages }] = await runStatement(
    queryRunner,
    sql`SELECT pg_relation_size(${table}::regclass) / current_setting('block_size')::int AS pages`,
  );
  for (let from = 0; from <= Number(pages); from += BACKFILL_PAGES) {
    await runStatement(
      queryRunner,
      sql`UPDATE ${rows} SET ${written(assignment)}
           WHERE ctid >= ${`(${from},0)`}::tid AND ctid < ${`(${from + BACKFILL_PAGES},0)`}::tid AND ${written(pending)}`,
    );
  }
}

/**
 * Builds an index CONCURRENTLY (`definition` is what follows ON), after dropping one that a failed build left
 * invalid.
 */
export async function buildIndexConcurrently(
  queryRunner: QueryRunner,
  name: string,
  definition: string,
): Promise<void> {
  const [{ invalid }] = await runStatement(
    queryRunner,
    sql`SELECT count(*) > 0 AS invalid FROM pg_index WHERE indexrelid = to_regclass(${name}) AND NOT indisvalid`,
  );
  if (invalid) await queryRunner.query(`DROP INDEX CONCURRENTLY ${name}`);
  await queryRunner.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${definition}`);
}
