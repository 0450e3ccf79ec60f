import { PetNotFoundError, UnknownCategoryError } from './pet.errors';
import type { PetsRepository } from './pets.repository';
import { PetsService } from './pets.service';

function setUp() {
  const repository = { insert: jest.fn(), findById: jest.fn(), readPage: jest.fn() };
  return { repository, service: new PetsService(repository as unknown as PetsRepository) };
}

describe('PetsService', () => {
  it('reads the first page when no cursor is given', async () => {
    const { service, repository } = setUp();
    await service.list({ limit: 10, status: 'sold' });
    expect(repository.readPage).toHaveBeenCalledWith({ status: 'sold', afterId: 0, limit: 10 });
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
    await expect(service.create({ name: 'Rex', categoryId: 9 })).rejects.toBeInstanceOf(UnknownCategoryError);
  });

  it('passes any other failure of the INSERT on', async () => {
    const { service, repository } = setUp();
    const outage = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    repository.insert.mockRejectedValue(outage);
    await expect(service.create({ name: 'Rex', categoryId: 1 })).rejects.toBe(outage);
  });

  it('answers an unknown pet with not_found', async () => {
    const { service, repository } = setUp();
    repository.findById.mockResolvedValue(undefined);
    await expect(service.get(42)).rejects.toBeInstanceOf(PetNotFoundError);
  });
});
