import {
  NotListerError,
  PetHasOpenOrderError,
  PetNotFoundError,
  PreconditionFailedError,
  UnknownCategoryError,
} from './pet.errors';
import type { Sql } from '@app/database';
import type { EventsRecorder } from '@app/events';
import type { StoredPet } from './pet-row';
import type { PetSearch, PetSearchRepository } from './pet-search.repository';
import type { PetsRepository } from './pets.repository';
import { PetsService } from './pets.service';

function setUp() {
  const repository = {
    insert: jest.fn(),
    findById: jest.fn(),
    readPage: jest.fn(),
    update: jest.fn(),
    delete: jest.fn(),
  } satisfies Partial<PetsRepository>;
  const finder = { search: jest.fn(), categoryExists: jest.fn() } satisfies Partial<PetSearchRepository>;
  const sql = { transaction: <T>(work: () => Promise<T>) => work() } satisfies Partial<Sql>;
  const transaction = jest.spyOn(sql, 'transaction');
  const events = { recordAll: jest.fn().mockResolvedValue(undefined) } satisfies Partial<EventsRecorder>;
  const service = new PetsService(
    repository as unknown as PetsRepository,
    finder as unknown as PetSearchRepository,
    sql as unknown as Sql,
    events as unknown as EventsRecorder,
  );
  return { repository, finder, service, transaction, events };
}

describe('PetsService', () => {
  it('reads pages by id of one status at most in batches, from the first when no cursor is given', async () => {
    const { service, repository, finder } = setUp();
    repository.readPage.mockResolvedValue({ pets: [], lastId: 4 });
    const page = await service.search({ statuses: ['sold'], radiusKm: 50, sort: 'id', limit: 10 });
    expect(repository.readPage).toHaveBeenCalledWith({ status: 'sold', afterId: 0, limit: 10 });
    expect(page.next).toEqual({ id: 4 });
    expect(finder.search).not.toHaveBeenCalled();
  });

  it.each<[string, Partial<PetSearch>]>([
    ['two statuses', { statuses: ['sold', 'pending'] }],
    ['a filter', { sex: 'male' }],
    ['another sort', { sort: 'updatedAt' }],
  ])('searches with its own statement for %s', async (_case, search) => {
    const { service, repository, finder } = setUp();
    finder.search.mockResolvedValue({ pets: [{ id: 1 }] });
    await service.search({ radiusKm: 50, sort: 'id', limit: 10, ...search });
    expect(finder.search).toHaveBeenCalled();
    expect(repository.readPage).not.toHaveBeenCalled();
  });

  it('refuses a category that does not exist, told apart from one without pets', async () => {
    const { service, finder } = setUp();
    finder.search.mockResolvedValue({ pets: [] });
    finder.categoryExists.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    const search: PetSearch = { categoryId: 9, radiusKm: 50, sort: 'id', limit: 10 };
    await expect(service.search(search)).resolves.toEqual({ pets: [] });
    await expect(service.search(search)).rejects.toBeInstanceOf(UnknownCategoryError);
  });

  it.each([
    ['left out of the INSERT', () => Promise.resolve(undefined)],
    [
      'removed during the INSERT',
      () => Promise.reject(Object.assign(new Error('violates foreign key'), { code: '23503' })),
    ],
  ])('refuses a pet whose category was %s as validation_failed', async (_case, insert) => {
    const { service, repository } = setUp();
    repository.insert.mockImplementation(insert);
    await expect(service.create({ name: 'Rex', categoryId: 9, listerAccountId: 1 })).rejects.toBeInstanceOf(
      UnknownCategoryError,
    );
  });

  it('passes any other failure of the INSERT on', async () => {
    const { service, repository } = setUp();
    const outage = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    repository.insert.mockRejectedValue(outage);
    await expect(service.create({ name: 'Rex', categoryId: 1, listerAccountId: 1 })).rejects.toBe(outage);
  });

  it('answers an unknown pet with not_found', async () => {
    const { service, repository } = setUp();
    repository.findById.mockResolvedValue(undefined);
    await expect(service.get(42)).rejects.toBeInstanceOf(PetNotFoundError);
  });

  describe('a change the guarded statement did not apply', () => {
    const stored = (fields: Partial<StoredPet>): StoredPet => ({
      pet: { id: 7 } as StoredPet['pet'],
      version: '100',
      listerAccountId: 1,
      hasOpenOrder: false,
      ...fields,
    });
    const change = { petId: 7, listerAccountId: 1, patch: { status: 'sold' as const }, versions: ['99'] };

    it.each([
      ['a missing pet', undefined, PetNotFoundError],
      ['a pet of another lister, whatever else', stored({ listerAccountId: 2, hasOpenOrder: true }), NotListerError],
      ['a pet without lister', stored({ listerAccountId: undefined }), NotListerError],
      ['another version, before the open order', stored({ hasOpenOrder: true }), PreconditionFailedError],
      ['an open order', stored({ version: '99', hasOpenOrder: true }), PetHasOpenOrderError],
    ])('is refused for %s', async (_case, current, error) => {
      const { service, repository, events } = setUp();
      repository.update.mockResolvedValue(undefined);
      repository.delete.mockResolvedValue(undefined);
      repository.findById.mockResolvedValue(current);
      await expect(service.update(change)).rejects.toBeInstanceOf(error);
      await expect(service.delete(change)).rejects.toBeInstanceOf(error);
      expect(events.recordAll).not.toHaveBeenCalled();
    });

    it('is tried again when nothing is wrong with the pet any more: a concurrent change has gone', async () => {
      const { service, repository } = setUp();
      const updated = stored({ version: '101' });
      repository.update.mockResolvedValueOnce(undefined).mockResolvedValueOnce(updated);
      repository.findById.mockResolvedValue(stored({ version: '99' }));
      await expect(service.update(change)).resolves.toBe(updated);
      expect(repository.update).toHaveBeenCalledTimes(2);
    });

    it('refuses a category that does not exist once the pet itself lets the change through', async () => {
      const { service, repository, finder } = setUp();
      repository.update.mockResolvedValue(undefined);
      repository.findById.mockResolvedValue(stored({ version: '99' }));
      finder.categoryExists.mockResolvedValue(false);
      await expect(
        service.update({ petId: 7, listerAccountId: 1, patch: { categoryId: 9 }, versions: ['99'] }),
      ).rejects.toBeInstanceOf(UnknownCategoryError);
      expect(finder.categoryExists).toHaveBeenCalledWith(9);
      expect(repository.update).toHaveBeenCalledTimes(1);
    });

    it('lets a change that sets no status through an open order', async () => {
      const { service, repository } = setUp();
      repository.update.mockResolvedValueOnce(undefined).mockResolvedValueOnce(stored({}));
      repository.findById.mockResolvedValue(stored({ hasOpenOrder: true }));
      await service.update({ petId: 7, listerAccountId: 1, patch: { name: 'Rex' } });
      expect(repository.update).toHaveBeenCalledTimes(2);
    });
  });

  it('records the event of a removal the statement applied, to the lister, in its transaction', async () => {
    const { service, repository, transaction, events } = setUp();
    const removed: StoredPet = {
      pet: { id: 7 } as StoredPet['pet'],
      version: '101',
      listerAccountId: 3,
      hasOpenOrder: false,
    };
    let inTransaction = false;
    transaction.mockImplementation(async (work) => {
      inTransaction = true;
      return work().finally(() => (inTransaction = false));
    });
    events.recordAll.mockImplementation(async () => expect(inTransaction).toBe(true));
    repository.delete.mockResolvedValue(removed);
    await service.delete({ petId: 7, listerAccountId: 3 });
    expect(events.recordAll).toHaveBeenCalledWith([
      { recipientAccountId: 3, type: 'pet.deleted', object: removed.pet },
    ]);
  });
});
