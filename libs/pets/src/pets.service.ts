import { Sql, sqlState } from '@app/database';
import { EventsRecorder } from '@app/events';
import { MergePatch, mergePatchChange, mergesIntoObjects } from '@app/http';
import { Injectable } from '@nestjs/common';
import { UpdatePetDto } from './dto/update-pet.dto';
import {
  NotListerError,
  PetHasOpenOrderError,
  PetNotFoundError,
  PreconditionFailedError,
  UnknownCategoryError,
} from './pet.errors';
import { PetEventType, petEvents } from './pet-events';
import type { StoredPet } from './pet-row';
import { PetSearch, PetSearchRepository, SearchPage } from './pet-search.repository';
import { NewPet, PetChange, PetPatch, PetsRepository } from './pets.repository';

const FOREIGN_KEY_VIOLATION = '23503';
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
    if (search.categoryId !== undefined && page.pets.length === 0 && !after) {
      if (!(await this.finder.categoryExists(search.categoryId))) throw new UnknownCategoryError(search.categoryId);
    }
    return page;
  }

  /** Adds the pet; its lister receives its `pet.created` event (recorded with the batched INSERT). */
  async create(pet: NewPet): Promise<StoredPet> {
    const created = await this.withCategory(pet.categoryId, () => this.pets.insert(pet));
    if (created) return created;
    throw new UnknownCategoryError(pet.categoryId);
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
  async update(request: Omit<PetChange, 'patch'> & { patch: MergePatch }): Promise<StoredPet> {
    for (let attempt = 1; ; attempt++) {
      const current = mergesIntoObjects(request.patch) ? await this.changeable(request) : undefined;
      const patch = await mergePatchChange(UpdatePetDto, request.patch, current?.pet);
      const change = { ...request, patch, versions: current ? [current.version] : request.versions };
      const updated = await this.withCategory(patch.categoryId ?? 0, () => this.pets.update(change));
      if (updated) return updated;
      await this.refusal(request, patch, attempt);
    }
  }

  /** Removes a pet at the request of its lister, if it is at one of `versions` (If-Match). */
  async delete(removal: Omit<PetChange, 'patch'>): Promise<void> {
    for (let attempt = 1; !(await this.withEvent('pet.deleted', () => this.pets.delete(removal))); attempt++) {
      await this.refusal(removal, undefined, attempt);
    }
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

  /** Runs a write that names a category, refusing one that does not exist (or was removed meanwhile). */
  private async withCategory<T>(categoryId: number, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (sqlState(error) !== FOREIGN_KEY_VIOLATION) throw error;
      throw new UnknownCategoryError(categoryId);
    }
  }
}
