import type { PetRecordDto } from './dto/pet.dto';
import { sqlState } from '@app/database';
import {
  ExternalIdTakenError,
  NotListerError,
  PetHasOpenOrderError,
  PetNotFoundError,
  PreconditionFailedError,
  UnknownCategoryError,
} from './pet.errors';
import { REPLACED_FIELDS } from './pet-columns';
import type { StoredPet } from './pet-row';
import type { PetSearch } from './pet-search.repository';
import type { PetChange, PetPatch } from './pets.repository';

const FOREIGN_KEY_VIOLATION = '23503';
const UNIQUE_VIOLATION = '23505';

/**
 * The pet as it is (`current`, undefined when it is gone), if `change` may apply to it: it exists, the
 * caller listed it, and it is at `versions`. Otherwise throws why not, the precondition before the rest
 * (RFC 9110 13.2.2).
 */
export function assertChangeable(current: StoredPet | undefined, change: Omit<PetChange, 'patch'>): StoredPet {
  if (!current) throw new PetNotFoundError(change.petId);
  if (current.listerAccountId !== change.listerAccountId) throw new NotListerError(change.petId);
  if (change.versions && !change.versions.includes(current.version)) throw new PreconditionFailedError(change.petId);
  return current;
}

/**
 * Refuses a change of status, or a removal (`patch` undefined), of a pet an open order holds. A validated
 * patch holds every field, those it does not set undefined.
 */
export function assertNotHeld(current: StoredPet, patch: PetPatch | undefined): void {
  if ((!patch || patch.status !== undefined) && current.hasOpenOrder) throw new PetHasOpenOrderError(current.pet.id);
}

/** The fields of a search that the batched page read serves as well (statuses, when one at most). */
const BATCHABLE_FIELDS = new Set(['statuses', 'radiusKm', 'sort', 'after', 'limit']);

/** Whether the batched page read serves `search`: a page by id, filtered by one status at most. */
export function readsInBatches(search: PetSearch): boolean {
  const filtered = Object.entries(search).some(([name, value]) => !BATCHABLE_FIELDS.has(name) && value !== undefined);
  return search.sort === 'id' && !filtered && (search.statuses ?? []).length <= 1;
}

/**
 * Runs a write of `fields`, refusing a category that does not exist (or was removed meanwhile) and an
 * external id another of the lister's pets has.
 */
export async function withChecks<T>(fields: PetPatch, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const state = sqlState(error);
    if (state === FOREIGN_KEY_VIOLATION) throw new UnknownCategoryError(fields.categoryId ?? 0);
    if (state === UNIQUE_VIOLATION && fields.externalId) throw new ExternalIdTakenError(fields.externalId);
    throw error;
  }
}

/**
 * The change that replaces `current`'s record with `record`: every field set or cleared (a nested object
 * whole, its members the record leaves out cleared), the status only when the record names another.
 */
export function replacement(record: PetRecordDto, current: StoredPet): PetPatch {
  const patch: PetPatch = Object.fromEntries(REPLACED_FIELDS.map((field) => [field, record[field] ?? null]));
  if (record.status !== undefined && record.status !== current.pet.status) patch.status = record.status;
  return patch;
}
