// Preloaded (`node --require`) into the api processes of the `write-order` scenario's second variant, and
// into no other process: the pets' write order is taken out, everything else as in the real api. Every
// change draws its time from `clock_timestamp()` instead of updating the one `pet_change_clock` row, so that
// inserts and changes no longer wait for each other. What remains is what the same statements cost
// PostgreSQL when they need not run one at a time; ids and `updated_at` then no longer follow the commit
// order, so walks may skip pets (libs/pets/src/pet-changes.ts).
import 'reflect-metadata';
import { Sql, SqlFragment } from '@app/database';
import { PET_CHANGE } from '@app/pets';

const UNORDERED_CHANGE = 'pet_change AS (SELECT clock_timestamp() AS changed_at)';

function withoutWriteOrder(statement: SqlFragment): SqlFragment {
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
