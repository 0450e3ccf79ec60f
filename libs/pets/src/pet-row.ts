import { columnList, sql, type ColumnOf, type SqlFragment } from '@app/database';
import { FIELDS, type FieldType, type PetColumnsRow, READ_COLUMNS } from './pet-columns';
import type { PetAsStored } from './pet-photo-urls';

/**
 * A pet's version, its ETag: `updated_at` in microseconds, unique to each change (pet-changes.ts). An
 * expression of the row, so that a guarded UPDATE or DELETE compares it in its WHERE.
 */
export const PET_VERSION = sql`(extract(epoch FROM updated_at) * 1000000)::bigint`;

/** The columns every read of a pet selects, by name: the fields' (pet-columns.ts), and two computed. */
export const PET_COLUMNS = sql`${READ_COLUMNS}, open_order_id IS NOT NULL AS has_open_order, ${PET_VERSION} AS version`;

export type PetRow = PetColumnsRow & { has_open_order: boolean; version: string };

/** A field's value as the Pet shows it, from its column's (not null). */
function shown(type: FieldType, value: unknown): unknown {
  if (type === 'id') return Number(value);
  return type === 'time' ? (value as Date).toISOString() : value;
}

/**
 * The Pet as clients see it, its photos as stored (`PhotoUrls.servedPet` forms their URLs): fields never set
 * are left out (an object when none of its members is), and the lister is never shown.
 */
export function toPet(row: PetRow): PetAsStored {
  const columns: Partial<Record<ColumnOf<'pets'>, unknown>> = row;
  const pet: Record<string, unknown> = {};
  for (const [field, declaration] of FIELDS) {
    if ('members' in declaration) {
      const set = Object.entries(declaration.members).filter(([, column]) => columns[column] !== null);
      if (set.length > 0) pet[field] = Object.fromEntries(set.map(([member, column]) => [member, columns[column]]));
    } else if (columns[declaration.column] !== null) {
      pet[field] = shown(declaration.type, columns[declaration.column]);
    }
  }
  // PET_FIELDS names every field of the Pet, each in a column whose type fits.
  return pet as PetAsStored;
}

/** A time as `Date.toISOString` writes it: milliseconds, truncated as `pg` truncates microseconds. */
const isoTime = (column: SqlFragment) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A nested object's members, or NULL (the object left out) when none is set, as `toPet` does. */
const knownObject = (members: SqlFragment) => sql`nullif(jsonb_strip_nulls(jsonb_build_object(${members})), '{}')`;

/** Keys and values of a `jsonb_build_object`. */
const jsonMembers = (members: Array<[string, SqlFragment]>) =>
  sql.join(members.map(([key, value]) => sql`${sql.literal(key)}, ${value}`));

const column = (name: ColumnOf<'pets'>) => columnList('pets', [name]);

type Field = (typeof FIELDS)[number];

/** A field's key and value in the events' object. */
function jsonMember([field, declaration]: Field): [string, SqlFragment] {
  if (!('members' in declaration)) {
    const value = column(declaration.column);
    return [field, declaration.type === 'time' ? isoTime(value) : value];
  }
  const members = Object.entries(declaration.members).map(([member, name]): [string, SqlFragment] => [
    member,
    column(name),
  ]);
  return [field, knownObject(jsonMembers(members))];
}

const isDocument = ([, declaration]: Field) => 'type' in declaration && declaration.type === 'document';

/**
 * The Pet as `toPet` makes it, built by PostgreSQL from the columns of `PET_COLUMNS`: the object of the events
 * that a pet's insert or change records in its own statement (pets.repository.ts), where the change holds
 * the write order and a round trip to build it in the process would lengthen that. NULLs are left out, as
 * `toPet` leaves out unset fields; a document (`photos`) is added after, its members kept whatever they hold.
 * test/events/events-emitted.e2e-spec.ts keeps the two equal.
 */
export const PET_OBJECT = sql`jsonb_strip_nulls(jsonb_build_object(${jsonMembers(
  FIELDS.filter((field) => !isDocument(field)).map(jsonMember),
)})) || jsonb_build_object(${jsonMembers(FIELDS.filter(isDocument).map(jsonMember))})`;

/** A pet with what the service needs to guard a change of it, none of which clients see. */
export interface StoredPet {
  pet: PetAsStored;
  version: string;
  listerAccountId?: number;
  hasOpenOrder: boolean;
}

export function toStoredPet(row: PetRow): StoredPet {
  return {
    pet: toPet(row),
    version: row.version,
    listerAccountId: row.lister_account_id === null ? undefined : Number(row.lister_account_id),
    hasOpenOrder: row.has_open_order,
  };
}
