import { sql, type SqlFragment } from '@app/database';
import type { StoredPetPhoto } from './dto/pet-photo.dto';
import type { PetAsStored } from './pet-photo-urls';
import type { PetAgeGroup, PetCoat, PetSex, PetSize, PetStatus } from './pet-status';

/**
 * A pet's version, its ETag: `updated_at` in microseconds, unique to each change (pet-changes.ts). An
 * expression of the row, so that a guarded UPDATE or DELETE compares it in its WHERE.
 */
export const PET_VERSION = sql`(extract(epoch FROM updated_at) * 1000000)::bigint`;

/** The columns every read of a pet selects, in the order `PetRow` names them. */
export const PET_COLUMNS = sql`id, name, category_id, status, description, breed, sex, age_group, size, tags, photo_urls,
  latitude, longitude, photos, created_at, updated_at, lister_account_id, open_order_id IS NOT NULL AS has_open_order,
  spayed_neutered, house_trained, declawed, special_needs, shots_current, special_needs_notes, good_with_children,
  good_with_dogs, good_with_cats, coat, colors, secondary_breed, mixed_breed, external_id, organization_id,
  ${PET_VERSION} AS version`;

export interface PetRow {
  id: string;
  name: string;
  category_id: string;
  status: PetStatus;
  description: string | null;
  breed: string | null;
  sex: PetSex;
  age_group: PetAgeGroup | null;
  size: PetSize | null;
  tags: string[] | null;
  photo_urls: string[] | null;
  latitude: number | null;
  longitude: number | null;
  /** Kept by libs/photos: the pet's ready photos by position. */
  photos: StoredPetPhoto[];
  created_at: Date;
  updated_at: Date;
  lister_account_id: string | null;
  has_open_order: boolean;
  spayed_neutered: boolean | null;
  house_trained: boolean | null;
  declawed: boolean | null;
  special_needs: boolean | null;
  shots_current: boolean | null;
  special_needs_notes: string | null;
  good_with_children: boolean | null;
  good_with_dogs: boolean | null;
  good_with_cats: boolean | null;
  coat: PetCoat | null;
  colors: string[] | null;
  secondary_breed: string | null;
  mixed_breed: boolean | null;
  external_id: string | null;
  organization_id: string | null;
  version: string;
}

/** The members of a nested object whose columns are set; undefined when none is (the object is unknown). */
function known<T extends object>(members: { [Member in keyof T]: T[Member] | null }): T | undefined {
  const set = Object.entries(members).filter(([, value]) => value !== null);
  return set.length === 0 ? undefined : (Object.fromEntries(set) as T);
}

/**
 * The Pet as clients see it, its photos as stored (`PhotoUrls.servedPet` forms their URLs): fields never set
 * are left out, and the lister is never shown.
 */
export function toPet(row: PetRow): PetAsStored {
  const pet: PetAsStored = {
    id: Number(row.id),
    name: row.name,
    categoryId: Number(row.category_id),
    status: row.status,
    sex: row.sex,
    photos: row.photos,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.description !== null) pet.description = row.description;
  if (row.breed !== null) pet.breed = row.breed;
  if (row.age_group !== null) pet.ageGroup = row.age_group;
  if (row.size !== null) pet.size = row.size;
  if (row.tags !== null) pet.tags = row.tags;
  if (row.photo_urls !== null) pet.photoUrls = row.photo_urls;
  if (row.latitude !== null && row.longitude !== null) {
    pet.location = { latitude: row.latitude, longitude: row.longitude };
  }
  const attributes = known({
    spayedNeutered: row.spayed_neutered,
    houseTrained: row.house_trained,
    declawed: row.declawed,
    specialNeeds: row.special_needs,
    shotsCurrent: row.shots_current,
  });
  if (attributes) pet.attributes = attributes;
  if (row.special_needs_notes !== null) pet.specialNeedsNotes = row.special_needs_notes;
  const environment = known({
    children: row.good_with_children,
    dogs: row.good_with_dogs,
    cats: row.good_with_cats,
  });
  if (environment) pet.environment = environment;
  if (row.coat !== null) pet.coat = row.coat;
  if (row.colors !== null) pet.colors = row.colors;
  if (row.secondary_breed !== null) pet.secondaryBreed = row.secondary_breed;
  if (row.mixed_breed !== null) pet.mixedBreed = row.mixed_breed;
  if (row.external_id !== null) pet.externalId = row.external_id;
  if (row.organization_id !== null) pet.organizationId = row.organization_id;
  return pet;
}

/** A time as `Date.toISOString` writes it: milliseconds, truncated as `pg` truncates microseconds. */
const isoTime = (column: SqlFragment) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A nested object's members, or NULL (the object left out) when none is set, as `known` does. */
const knownObject = (members: SqlFragment) => sql`nullif(jsonb_strip_nulls(jsonb_build_object(${members})), '{}')`;

/**
 * The Pet as `toPet` makes it, built by PostgreSQL from the columns of `PET_COLUMNS`: the object of the events
 * that a pet's insert or change records in its own statement (pets.repository.ts), where the change holds
 * the write order and a round trip to build it in the process would lengthen that. NULLs are left out, as
 * `toPet` leaves out unset fields; `photos` is added after, its members kept whatever they hold.
 * test/events/events-emitted.e2e-spec.ts keeps the two equal.
 */
export const PET_OBJECT = sql`jsonb_strip_nulls(jsonb_build_object(
    'id', id, 'name', name, 'categoryId', category_id, 'status', status, 'sex', sex,
    'createdAt', ${isoTime(sql`created_at`)}, 'updatedAt', ${isoTime(sql`updated_at`)},
    'description', description, 'breed', breed, 'ageGroup', age_group, 'size', size, 'tags', tags,
    'photoUrls', photo_urls,
    'location', CASE WHEN latitude IS NOT NULL AND longitude IS NOT NULL
                     THEN jsonb_build_object('latitude', latitude, 'longitude', longitude) END,
    'attributes', ${knownObject(sql`'spayedNeutered', spayed_neutered, 'houseTrained', house_trained,
                   'declawed', declawed, 'specialNeeds', special_needs, 'shotsCurrent', shots_current`)},
    'specialNeedsNotes', special_needs_notes,
    'environment', ${knownObject(sql`'children', good_with_children, 'dogs', good_with_dogs, 'cats', good_with_cats`)},
    'coat', coat, 'colors', colors, 'secondaryBreed', secondary_breed, 'mixedBreed', mixed_breed,
    'externalId', external_id, 'organizationId', organization_id
  )) || jsonb_build_object('photos', photos)`;

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
