import { Sql, sqlState } from '@app/database';
import { EventsRecorder } from '@app/events';
import { MergePatch, mergePatchChange, mergesIntoObjects, PutPrecondition } from '@app/http';
import { Injectable } from '@nestjs/common';
import type { PetRecordDto } from './dto/pet.dto';
import { UpdatePetDto } from './dto/update-pet.dto';
import {
  ExternalIdTakenError,
  NotListerError,
  PetHasOpenOrderError,
  PetNotFoundError,
  PreconditionFailedError,
  UnknownCategoryError,
  UnknownOrganizationError,
} from './pet.errors';
import { PetEventType, petEvents } from './pet-events';
import type { StoredPet } from './pet-row';
import { PetSearch, PetSearchRepository, SearchPage } from './pet-search.repository';
import { NewPet, PetChange, PetPatch, PetsRepository } from './pets.repository';

const FOREIGN_KEY_VIOLATION = '23503';
const UNIQUE_VIOLATION = '23505';
/**
 * A guarded change that found nothing wrong with the pet afterwards raced with another change of it;
 * it is tried again this many times (each race needs another change to win it).
 */
const CHANGE_ATTEMPTS = 5;

/** The fields of a search that the batched page read serves as well (statuses, when one at most). */
const BATCHABLE_FIELDS = new Set(['statuses', 'radiusKm', 'sort', 'after', 'limit']);

/** The catalogue's rules; PetsRepository holds its SQL. */
@Injectable()
export class PetsService {
  constructor(
    private readonly pets: PetsRepository,
    private readonly finder: PetSearchRepository,
    private readonly sql: Sql,
    private readonly events: EventsRecorder,
  ) {}

  /**
   * A page of the catalogue. The commonest pages (by id, with at most one status) are read in batches with
   * other requests' (PetsRepository.readPage); every other search runs its own statement.
   */
  async search(search: PetSearch): Promise<SearchPage> {
    const { statuses = [], limit, after } = search;
    const filtered = Object.entries(search).some(([name, value]) => !BATCHABLE_FIELDS.has(name) && value !== undefined);
    if (search.sort === 'id' && !filtered && statuses.length <= 1) {
      const page = await this.pets.readPage({ status: statuses[0], afterId: after?.id ?? 0, limit });
      return { pets: [...page.pets], next: page.lastId === undefined ? undefined : { id: page.lastId } };
    }
    const page = await this.finder.search(search);
    // A filter naming nothing is refused, checked only when it found nothing: one statement otherwise.
    if (page.pets.length === 0 && !after) {
      const { categoryId, organizationId } = search;
      if (categoryId !== undefined) await this.assertCategoryExists(categoryId);
      if (organizationId !== undefined) await this.assertOrganizationExists(organizationId);
    }
    return page;
  }

  /** Adds the pet; its lister receives its `pet.created` event (recorded with the batched INSERT). */
  async create(pet: NewPet): Promise<StoredPet> {
    const created = await this.withChecks(pet, () => this.pets.insert(pet));
    if (created) return created;
    throw new UnknownCategoryError(pet.categoryId);
  }

  /**
   * Creates the lister's pet with this external id, or replaces the one it has: `created`
   * tells which. A replacement clears the optional fields absent from `record`, and keeps the status when
   * it names none; with `If-Match` it creates none. Two of these racing for one external id, on any
   * processes, make one pet: the unique index refuses the second INSERT, which then replaces the first's pet.
   */
  async putByExternalId(
    listerAccountId: number,
    externalId: string,
    record: PetRecordDto,
    { versions, mayCreate }: PutPrecondition,
  ): Promise<{ stored: StoredPet; created: boolean }> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.pets.findByExternalId({ listerAccountId, externalId });
      if (current) {
        const patch = replacement(record, current);
        const change = { petId: current.pet.id, listerAccountId, patch, versions };
        const stored = await this.applyChange(change, async () => change);
        return { stored, created: false };
      }
      // If-Match, even `*`, needs a current pet (RFC 9110 13.1.1).
      if (!mayCreate) throw new PreconditionFailedError(externalId);
      try {
        return { stored: await this.create({ ...record, externalId, listerAccountId }), created: true };
      } catch (error) {
        // Another request created it meanwhile: replace that one.
        if (!(error instanceof ExternalIdTakenError) || attempt >= CHANGE_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * Gives every pet of the account its organisation (none, when null), each with its `pet.updated` event,
   * in the caller's transaction: the one that publishes or removes the organisation.
   */
  setOrganization(listerAccountId: number, organizationId: string | null): Promise<void> {
    return this.pets.setOrganization(listerAccountId, organizationId);
  }

  async get(petId: number): Promise<StoredPet> {
    const pet = await this.pets.findById(petId);
    if (!pet) throw new PetNotFoundError(petId);
    return pet;
  }

  /**
   * Applies a merge patch (RFC 7396) by the pet's lister, if the pet is at one of `versions` (If-Match); its
   * `pet.updated` event is recorded with the batched UPDATE. A patch that merges into a nested object
   * (`location`) is merged over the pet as read, and applied only while the pet is still at that version:
   * a change that came between is merged over in turn, never lost.
   */
  update(request: Omit<PetChange, 'patch'> & { patch: MergePatch }): Promise<StoredPet> {
    return this.applyChange(request, async () => {
      const current = mergesIntoObjects(request.patch) ? await this.changeable(request) : undefined;
      const patch = await mergePatchChange(UpdatePetDto, request.patch, current?.pet);
      return { ...request, patch, versions: current ? [current.version] : request.versions };
    });
  }

  /**
   * Applies the change `prepare` makes of `request` (again, should a concurrent change make its guard fail),
   * or throws why it cannot apply.
   */
  private async applyChange(request: Omit<PetChange, 'patch'>, prepare: () => Promise<PetChange>): Promise<StoredPet> {
    for (let attempt = 1; ; attempt++) {
      const change = await prepare();
      const updated = await this.withChecks(change.patch, () => this.pets.update(change));
      if (updated) return updated;
      await this.refusal(request, change.patch, attempt);
    }
  }

  /** Removes a pet at the request of its lister, if it is at one of `versions` (If-Match). */
  async delete(removal: Omit<PetChange, 'patch'>): Promise<void> {
    for (let attempt = 1; !(await this.withEvent('pet.deleted', () => this.pets.delete(removal))); attempt++) {
      await this.refusal(removal, undefined, attempt);
    }
  }

  /** Refuses a category that does not exist, as a search naming it is refused. */
  async assertCategoryExists(categoryId: number): Promise<void> {
    if (!(await this.finder.categoryExists(categoryId))) throw new UnknownCategoryError(categoryId);
  }

  /** Refuses an organisation that does not exist, as a search naming it is refused. */
  async assertOrganizationExists(organizationId: string): Promise<void> {
    if (!(await this.finder.organizationExists(organizationId))) throw new UnknownOrganizationError(organizationId);
  }

  listCategories(): Promise<Array<{ id: number; name: string }>> {
    return this.pets.listCategories();
  }

  /**
   * Why a guarded change of the pet (a removal, when `patch` is undefined) did not apply, read after the
   * fact: thrown as the error the client gets (the precondition before the rest, RFC 9110 13.2.2, and the
   * pet before the category it names). When nothing is wrong any more, a concurrent change made the guard
   * fail and has since gone: the caller tries again.
   */
  private async refusal(change: Omit<PetChange, 'patch'>, patch: PetPatch | undefined, attempt: number): Promise<void> {
    const current = await this.changeable(change);
    // An open order stops a removal as it stops a change of status. (A validated patch holds every field,
    // those it does not set undefined.)
    if ((!patch || patch.status !== undefined) && current.hasOpenOrder) throw new PetHasOpenOrderError(change.petId);
    const categoryId = patch?.categoryId;
    if (typeof categoryId === 'number' && !(await this.finder.categoryExists(categoryId))) {
      throw new UnknownCategoryError(categoryId);
    }
    if (attempt >= CHANGE_ATTEMPTS) throw new PreconditionFailedError(change.petId);
  }

  /**
   * Runs a guarded write of one pet and records its event in the same transaction, when the write applied
   * (a removal: PATCHes record theirs with their batch, PetsRepository.update).
   */
  private withEvent(type: PetEventType, change: () => Promise<StoredPet | undefined>): Promise<StoredPet | undefined> {
    return this.sql.transaction(async () => {
      const changed = await change();
      if (changed) await this.events.recordAll(petEvents(type, changed));
      return changed;
    });
  }

  /** The pet as it is, if `change` may apply to it: it exists, the caller listed it, and it is at `versions`. */
  private async changeable(change: Omit<PetChange, 'patch'>): Promise<StoredPet> {
    const current = await this.pets.findById(change.petId);
    if (!current) throw new PetNotFoundError(change.petId);
    if (current.listerAccountId !== change.listerAccountId) throw new NotListerError(change.petId);
    if (change.versions && !change.versions.includes(current.version)) {
      throw new PreconditionFailedError(change.petId);
    }
    return current;
  }

  /**
   * Runs a write of `fields`, refusing a category that does not exist (or was removed meanwhile) and an
   * external id another of the lister's pets has.
   */
  private async withChecks<T>(fields: PetPatch, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      const state = sqlState(error);
      if (state === FOREIGN_KEY_VIOLATION) throw new UnknownCategoryError(fields.categoryId ?? 0);
      if (state === UNIQUE_VIOLATION && fields.externalId) throw new ExternalIdTakenError(fields.externalId);
      throw error;
    }
  }
}

/** Every field a replacement writes: those absent from the record are cleared. */
const RECORD_FIELDS = [
  'name',
  'categoryId',
  'description',
  'breed',
  'sex',
  'ageGroup',
  'size',
  'tags',
  'photoUrls',
  'location',
  'specialNeedsNotes',
  'coat',
  'colors',
  'secondaryBreed',
  'mixedBreed',
] as const satisfies ReadonlyArray<keyof PetRecordDto>;

/**
 * The change that replaces `current`'s record with `record`: every field set or cleared, the members of
 * `attributes` and `environment` too; the status only when the record names another.
 */
function replacement(record: PetRecordDto, current: StoredPet): PetPatch {
  const patch: PetPatch = Object.fromEntries(RECORD_FIELDS.map((field) => [field, record[field] ?? null]));
  patch.attributes = {
    spayedNeutered: record.attributes?.spayedNeutered ?? null,
    houseTrained: record.attributes?.houseTrained ?? null,
    declawed: record.attributes?.declawed ?? null,
    specialNeeds: record.attributes?.specialNeeds ?? null,
    shotsCurrent: record.attributes?.shotsCurrent ?? null,
  };
  patch.environment = {
    children: record.environment?.children ?? null,
    dogs: record.environment?.dogs ?? null,
    cats: record.environment?.cats ?? null,
  };
  if (record.status !== undefined && record.status !== current.pet.status) patch.status = record.status;
  return patch;
}
