import { RACED, retryOnConflict } from '@app/core';
import { Sql } from '@app/database';
import { EventsRecorder } from '@app/events';
import { MergePatch, mergePatchChange, mergesIntoObjects, PutPrecondition } from '@app/http';
import { Injectable, Optional } from '@nestjs/common';
import type { PetRecordDto } from './dto/pet.dto';
import { UpdatePetDto } from './dto/update-pet.dto';
import {
  ExternalIdTakenError,
  PetNotFoundError,
  PreconditionFailedError,
  UnknownCategoryError,
  UnknownOrganizationError,
} from './pet.errors';
import { assertChangeable, assertNotHeld, readsInBatches, replacement, withChecks } from './pet-change-rules';
import { petEvents } from './pet-events';
import { PetRemovalFollower } from './pet-removal-follower';
import type { StoredPet } from './pet-row';
import { PetSearch, PetSearchRepository, SearchPage } from './pet-search.repository';
import { NewPet, PetChange, PetPatch, PetsRepository } from './pets.repository';

/**
 * Tries of a guarded change whose guard failed though nothing was wrong with the pet afterwards, and of a
 * create by external id that lost the race for the id to another request.
 */
const CHANGE_ATTEMPTS = 5;

/** The catalogue's rules; PetsRepository holds its SQL. */
@Injectable()
export class PetsService {
  constructor(
    private readonly pets: PetsRepository,
    private readonly finder: PetSearchRepository,
    private readonly sql: Sql,
    private readonly events: EventsRecorder,
    @Optional() private readonly removals?: PetRemovalFollower,
  ) {}

  /**
   * A page of the catalogue. The commonest pages (by id, with at most one status) are read in batches with
   * other requests' (PetsRepository.readPage); every other search runs its own statement.
   */
  async search(search: PetSearch): Promise<SearchPage> {
    const { statuses = [], limit, after } = search;
    if (readsInBatches(search)) {
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
    const created = await withChecks(pet, () => this.pets.insert(pet));
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
   * Applies the change `prepare` makes of `request` (prepared again, should a concurrent change make its
   * guard fail), or throws why it cannot apply.
   */
  private applyChange(request: Omit<PetChange, 'patch'>, prepare: () => Promise<PetChange>): Promise<StoredPet> {
    return retryOnConflict(
      CHANGE_ATTEMPTS,
      async () => {
        const change = await prepare();
        const updated = await withChecks(change.patch, () => this.pets.update(change));
        if (updated) return updated;
        await this.assertApplicable(request, change.patch);
        return RACED;
      },
      () => new PreconditionFailedError(request.petId),
    );
  }

  /** Removes a pet at the request of its lister, if it is at one of `versions` (If-Match). */
  async delete(removal: Omit<PetChange, 'patch'>): Promise<void> {
    await retryOnConflict(
      CHANGE_ATTEMPTS,
      async () => {
        const removed = await this.removeWithEvent(() => this.pets.delete(removal));
        if (removed) return removed;
        await this.assertApplicable(removal, undefined);
        return RACED;
      },
      () => new PreconditionFailedError(removal.petId),
    );
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
   * Throws why a guarded change of the pet (a removal, when `patch` is undefined) that did not apply cannot
   * apply, read after the fact: the pet before the category it names. Returns when nothing is wrong with
   * the pet: a concurrent change made the guard fail.
   */
  private async assertApplicable(change: Omit<PetChange, 'patch'>, patch: PetPatch | undefined): Promise<void> {
    assertNotHeld(await this.changeable(change), patch);
    const categoryId = patch?.categoryId;
    if (typeof categoryId === 'number') await this.assertCategoryExists(categoryId);
  }

  /**
   * Runs a guarded removal of one pet and, when it applied, records its event and lets its follower
   * follow in the same transaction (PATCHes record theirs with their batch, PetsRepository.update).
   */
  private removeWithEvent(removal: () => Promise<StoredPet | undefined>): Promise<StoredPet | undefined> {
    return this.sql.transaction(async () => {
      const removed = await removal();
      if (!removed) return undefined;
      await this.events.recordAll(petEvents('pet.deleted', removed));
      await this.removals?.petRemoved(removed.pet.id);
      return removed;
    });
  }

  /** The pet as it is, if `change` may apply to it (assertChangeable). */
  private async changeable(change: Omit<PetChange, 'patch'>): Promise<StoredPet> {
    return assertChangeable(await this.pets.findById(change.petId), change);
  }
}
