// Preloaded (`node --require`) into the api processes of the `write-order` scenario's second variant, and
// into no other process: the pets' write order is taken out, everything else as in the real api. Pet
// inserts no longer take PET_IDS_LOCK (its statement becomes a no-op with the same parameter), and every
// change draws its time from `clock_timestamp()` instead of updating the one `pet_change_clock` row. What
// remains is what the same statements cost PostgreSQL when they need not run one at a time; ids and
// `updated_at` then no longer follow the commit order, so walks may skip pets (ADR 0004, 0021).
import 'reflect-metadata';
import { Sql, sql, SqlFragment } from '@app/database';
import { PET_CHANGE, PET_IDS_LOCK } from '@app/pets';

const PET_IDS_LOCK_TEXT = sql`SELECT pg_advisory_xact_lock(${PET_IDS_LOCK})`.text;
const UNORDERED_CHANGE = 'pet_change AS (SELECT clock_timestamp() AS changed_at)';

function withoutWriteOrder(statement: SqlFragment): SqlFragment {
  if (statement.text === PET_IDS_LOCK_TEXT && statement.values[0] === PET_IDS_LOCK) {
    return sql`SELECT ${PET_IDS_LOCK}::bigint`;
  }
  // PET_CHANGE carries no values: its text lies within one of the statement's texts, between two values.
  const [clock] = PET_CHANGE.texts;
  if (!statement.texts.some((text) => text.includes(clock!))) return statement;
  return SqlFragment.of(
    statement.texts.map((text) => text.replace(clock!, UNORDERED_CHANGE)),
    statement.values,
  );
}

const query = Sql.prototype.query as (this: Sql, statement: SqlFragment | string, values?: unknown[]) => unknown;
Sql.prototype.query = function (this: Sql, statement: SqlFragment | string, values?: unknown[]) {
  return query.call(this, statement instanceof SqlFragment ? withoutWriteOrder(statement) : statement, values);
} as typeof Sql.prototype.query;
