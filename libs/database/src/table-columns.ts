import type { Selectable } from 'kysely';
import type { DB, JsonValue } from './schema';
import { SqlFragment } from './sql-template';

/** A column's type as pg returns it, from the committed schema. */
type Columns<T extends keyof DB> = Selectable<DB[T]>;

/**
 * What `TableRow` may narrow: only columns of the table, each to a type its own accepts (a text column to a
 * union of words); a jsonb column to any shape, which the schema cannot know.
 */
type Narrowing<T extends keyof DB, N> = {
  [C in keyof N]: C extends keyof Columns<T> ? (JsonValue extends Columns<T>[C] ? unknown : Columns<T>[C]) : never;
};

/**
 * A row of `table` as pg returns it, typed by the committed schema (libs/database/src/schema.ts), so that a
 * migration that changes a column fails to compile where a row still reads it the old way. `N` narrows
 * some of its columns.
 */
export type TableRow<T extends keyof DB, N extends Narrowing<T, N> = object> = Omit<Columns<T>, keyof N> & N;

/** A column of `table`. */
export type ColumnOf<T extends keyof DB> = keyof DB[T] & string;

/**
 * `columns`, as a SELECT or RETURNING lists them: names of the table's columns in the schema, which need no
 * quoting. The row such a list reads is `Pick<TableRow<table>, (typeof columns)[number]>`.
 */
export function columnList<T extends keyof DB>(_table: T, columns: readonly ColumnOf<T>[]): SqlFragment {
  return SqlFragment.of([columns.join(', ')], []);
}
