import { columnList, type ColumnOf, type TableRow } from '@app/database';
import type { StoredPetPhoto } from './dto/pet-photo.dto';
import type { CreatePetDto, PetRecordDto } from './dto/pet.dto';
import type { UpdatePetDto } from './dto/update-pet.dto';
import type { PetAsStored } from './pet-photo-urls';
import type { PetAgeGroup, PetCoat, PetSex, PetSize, PetStatus } from './pet-status';

/** A `pets` row as pg returns it, its columns of words and its photos narrowed to what the code writes there. */
type PetsRow = TableRow<
  'pets',
  {
    status: PetStatus;
    sex: PetSex;
    age_group: PetAgeGroup | null;
    size: PetSize | null;
    coat: PetCoat | null;
    /** Kept by libs/photos: the pet's ready photos by position. */
    photos: StoredPetPhoto[];
  }
>;

type PetColumn = ColumnOf<'pets'>;

/** How a scalar field's column is shown (`Storage`). */
export type FieldType = 'value' | 'id' | 'time' | 'document';

/** The columns whose values, once not null, are of type `V`. */
type ColumnHolding<V> = { [C in PetColumn]: [NonNullable<PetsRow[C]>] extends [V] ? C : never }[PetColumn];

/** The fields of the Pet as stored (its photos by their keys) but `distanceKm`, which a search adds. */
type PetField = Exclude<keyof PetAsStored, 'distanceKm'>;

/**
 * How a field is stored. A scalar is one column: `value` as pg returns it, `id` a bigint (text) shown as a
 * number, `time` a timestamp shown as ISO 8601, `document` a jsonb value shown whole, its null members kept.
 * An object (`location`, `attributes`) is a column per member, and is left out when none of them is set.
 */
type Storage<V> = [V] extends [Array<unknown> | string | number | boolean]
  ? | { column: ColumnHolding<V>; type: Extract<FieldType, 'value' | 'document'> }
    | ([V] extends [number] ? { column: ColumnHolding<string>; type: 'id' } : never)
    | ([V] extends [string] ? { column: ColumnHolding<Date>; type: 'time' } : never)
  : { members: { [Member in keyof V]-?: ColumnHolding<NonNullable<V[Member]>> } };

/** A flag the declaration states, as the bodies decide it: required when true, left out when false. */
type Flag<Name extends string, Value> = Value extends false ? { [K in Name]?: false } : { [K in Name]: Value };

/** Written by listers: a property of both the create and the change bodies. */
type Writable<F> = F extends keyof CreatePetDto
  ? F extends keyof UpdatePetDto
    ? true
    : 'missing from UpdatePetDto'
  : F extends keyof UpdatePetDto
    ? 'missing from CreatePetDto'
    : false;

/** Cleared by a PUT that leaves it out: a property of the record, but the status (kept unless named). */
type Replaced<F> = F extends Exclude<keyof PetRecordDto, 'status'> ? true : false;

type PetFieldDeclaration<F extends PetField> = Storage<NonNullable<PetAsStored[F]>> &
  Flag<'writable', Writable<F>> &
  Flag<'replaced', Replaced<F>> & {
    /** Stored when a new pet leaves it out, and when a change clears it. */
    default?: NonNullable<PetAsStored[F]>;
  };

/** Every body's property is a field of the Pet: a property missing from PetDto is one here, to declare there. */
type Undeclared = { [F in Exclude<keyof CreatePetDto | keyof UpdatePetDto, PetField>]: never };

/**
 * The pet record's fields, each declared once: the columns every read selects, what creates and changes
 * write, what a PUT replaces, the Pet that reads and events show (pet-row.ts) derive from it. The types make
 * it name every field of the Pet and every property of the bodies, each stored in a column whose type fits.
 */
const PET_FIELDS = {
  id: { column: 'id', type: 'id' },
  name: { column: 'name', type: 'value', writable: true, replaced: true },
  categoryId: { column: 'category_id', type: 'id', writable: true, replaced: true },
  status: { column: 'status', type: 'value', writable: true, default: 'available' },
  sex: { column: 'sex', type: 'value', writable: true, replaced: true, default: 'unknown' },
  // Kept by libs/photos (PetPhotoChanges).
  photos: { column: 'photos', type: 'document' },
  createdAt: { column: 'created_at', type: 'time' },
  updatedAt: { column: 'updated_at', type: 'time' },
  description: { column: 'description', type: 'value', writable: true, replaced: true },
  breed: { column: 'breed', type: 'value', writable: true, replaced: true },
  ageGroup: { column: 'age_group', type: 'value', writable: true, replaced: true },
  size: { column: 'size', type: 'value', writable: true, replaced: true },
  tags: { column: 'tags', type: 'value', writable: true, replaced: true },
  photoUrls: { column: 'photo_urls', type: 'value', writable: true, replaced: true },
  location: { members: { latitude: 'latitude', longitude: 'longitude' }, writable: true, replaced: true },
  attributes: {
    members: {
      spayedNeutered: 'spayed_neutered',
      houseTrained: 'house_trained',
      declawed: 'declawed',
      specialNeeds: 'special_needs',
      shotsCurrent: 'shots_current',
    },
    writable: true,
    replaced: true,
  },
  specialNeedsNotes: { column: 'special_needs_notes', type: 'value', writable: true, replaced: true },
  environment: {
    members: { children: 'good_with_children', dogs: 'good_with_dogs', cats: 'good_with_cats' },
    writable: true,
    replaced: true,
  },
  coat: { column: 'coat', type: 'value', writable: true, replaced: true },
  colors: { column: 'colors', type: 'value', writable: true, replaced: true },
  secondaryBreed: { column: 'secondary_breed', type: 'value', writable: true, replaced: true },
  mixedBreed: { column: 'mixed_breed', type: 'value', writable: true, replaced: true },
  // The PUT's path names it.
  externalId: { column: 'external_id', type: 'value', writable: true },
  organizationId: { column: 'organization_id', type: 'value' },
} as const satisfies { [F in PetField]: PetFieldDeclaration<F> } & Undeclared;

type Fields = typeof PET_FIELDS;

/** The columns of a field. */
type ColumnsOf<D> = D extends { column: infer C } ? C : D extends { members: infer M } ? M[keyof M] : never;
type FieldColumn = ColumnsOf<Fields[keyof Fields]>;

/**
 * The columns of `pets` that are no field, each said to be read by every read of a pet or not; the types make
 * it name every column of the table that PET_FIELDS does not, so that a new column is decided on here.
 */
const OTHER_COLUMNS = {
  // Guards changes, never shown (StoredPet).
  lister_account_id: true,
  // Read as `has_open_order` (pet-row.ts).
  open_order_id: false,
  // Kept by triggers for the filters (pet-search.repository.ts).
  search_document: false,
  colors_lowered: false,
} as const satisfies { [C in Exclude<PetColumn, FieldColumn>]: boolean };

type ReadColumn =
  | FieldColumn
  | {
      [C in keyof typeof OTHER_COLUMNS]: (typeof OTHER_COLUMNS)[C] extends true ? C : never;
    }[keyof typeof OTHER_COLUMNS];

/** The columns of a pet every read selects, by name. */
export type PetColumnsRow = Pick<PetsRow, ReadColumn>;

type FieldName = keyof Fields;
/** A field's declaration, as the code that goes through them all sees it. */
type Declaration = { writable?: boolean; replaced?: boolean; default?: string } & (
  { column: PetColumn; type: FieldType } | { members: Record<string, PetColumn> }
);

/** Each field with its declaration, in the declaration's order (the Pet's). */
export const FIELDS = Object.entries(PET_FIELDS) as Array<[FieldName, Declaration]>;

const columnsOf = (declaration: Declaration): PetColumn[] =>
  'members' in declaration ? Object.values(declaration.members) : [declaration.column];

/** The columns every read of a pet selects (pet-row.ts adds what is computed from others). */
export const READ_COLUMNS = columnList('pets', [
  ...FIELDS.flatMap(([, declaration]) => columnsOf(declaration)),
  ...Object.entries(OTHER_COLUMNS).flatMap(([column, read]) => (read ? [column as PetColumn] : [])),
]);

/** The fields listers write (the bodies' properties). */
type WritableField = { [F in FieldName]: Fields[F] extends { writable: true } ? F : never }[FieldName];
export const WRITABLE_FIELDS = FIELDS.filter(([, declaration]) => declaration.writable) as Array<
  [WritableField, Declaration]
>;

/** The columns listers write, in the declaration's order. */
export const WRITABLE_COLUMNS = columnList(
  'pets',
  WRITABLE_FIELDS.flatMap(([, declaration]) => columnsOf(declaration)),
);

/** The fields a PUT sets or clears. */
type ReplacedField = { [F in FieldName]: Fields[F] extends { replaced: true } ? F : never }[FieldName];
export const REPLACED_FIELDS = FIELDS.flatMap(([field, declaration]) =>
  declaration.replaced ? [field as ReplacedField] : [],
);
