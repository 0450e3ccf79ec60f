import { sql, SqlFragment } from './sql-template';

/**
 * Opens a batched UPDATE of shared rows with a `locked` CTE: the rows of `table` whose id is in `ids`
 * and that match `condition`, row-locked in id order before the UPDATE touches any of them; the UPDATE
 * then changes `WHERE id IN (SELECT id FROM locked)`.
 *
 * An UPDATE on its own locks rows in whatever order its plan visits them (an index scan in id order, a
 * bitmap scan in heap order), so two batches over overlapping rows, planned differently, can each hold
 * a row the other waits for: a deadlock. Taken in one order, the locks queue instead. A row changed
 * meanwhile is checked against `condition` again once locked, so a guard in it still holds.
 */
export function lockInIdOrder(table: string, ids: readonly unknown[], condition = sql`true`): SqlFragment {
  return sql`WITH locked AS MATERIALIZED (
       SELECT id FROM ${sql.identifier(table)} WHERE id = ANY(${ids}) AND (${condition}) ORDER BY id FOR NO KEY UPDATE)`;
}
