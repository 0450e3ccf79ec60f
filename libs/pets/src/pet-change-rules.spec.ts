import {
  ExternalIdTakenError,
  NotListerError,
  PetHasOpenOrderError,
  PetNotFoundError,
  PreconditionFailedError,
  UnknownCategoryError,
} from './pet.errors';
import { assertChangeable, assertNotHeld, readsInBatches, replacement, withChecks } from './pet-change-rules';
import type { PetAsStored } from './pet-photo-urls';
import type { StoredPet } from './pet-row';
import type { PetSearch } from './pet-search.repository';

const pet = (fields: Partial<PetAsStored> = {}): PetAsStored => ({
  id: 7,
  name: 'Rex',
  categoryId: 1,
  status: 'available',
  sex: 'male',
  photos: [],
  createdAt: '2026-06-01T00:00:00.000Z',
  updatedAt: '2026-06-01T00:00:00.000Z',
  ...fields,
});
const stored = (fields: Partial<StoredPet> = {}): StoredPet => ({
  pet: pet(),
  version: '100',
  listerAccountId: 1,
  hasOpenOrder: false,
  ...fields,
});

describe('readsInBatches', () => {
  const search = (fields: Partial<PetSearch>): PetSearch => ({ radiusKm: 50, sort: 'id', limit: 10, ...fields });

  it.each<[string, Partial<PetSearch>]>([
    ['a page by id', {}],
    ['a page by id of one status, after a cursor', { statuses: ['sold'], after: { id: 4 } }],
  ])('reads %s in batches', (_case, fields) => {
    expect(readsInBatches(search(fields))).toBe(true);
  });

  it.each<[string, Partial<PetSearch>]>([
    ['two statuses', { statuses: ['sold', 'pending'] }],
    ['a filter', { sex: 'male' }],
    ['another sort', { sort: 'updatedAt' }],
  ])('gives a search of %s its own statement', (_case, fields) => {
    expect(readsInBatches(search(fields))).toBe(false);
  });

  it('counts a filter left undefined as absent', () => {
    expect(readsInBatches(search({ sex: undefined, categoryId: undefined }))).toBe(true);
  });
});

describe('assertChangeable', () => {
  const change = { petId: 7, listerAccountId: 1, versions: ['99'] };

  it.each([
    ['a missing pet', undefined, PetNotFoundError],
    ['a pet of another lister, whatever its version', stored({ listerAccountId: 2 }), NotListerError],
    ['a pet without lister', stored({ listerAccountId: undefined }), NotListerError],
    ['a pet at another version', stored({ version: '100' }), PreconditionFailedError],
  ])('refuses %s', (_case, current, error) => {
    expect(() => assertChangeable(current, change)).toThrow(error);
  });

  it('gives back the pet of the lister at one of the versions, or at any when none is named', () => {
    const current = stored({ version: '99' });
    expect(assertChangeable(current, change)).toBe(current);
    expect(assertChangeable(stored(), { petId: 7, listerAccountId: 1 })).toEqual(stored());
  });
});

describe('assertNotHeld', () => {
  const held = stored({ hasOpenOrder: true });

  it('refuses a change of status and a removal of a pet an open order holds', () => {
    expect(() => assertNotHeld(held, { status: 'sold' })).toThrow(PetHasOpenOrderError);
    expect(() => assertNotHeld(held, undefined)).toThrow(PetHasOpenOrderError);
  });

  it('lets a change that sets no status through an open order, and any change of an unheld pet', () => {
    expect(() => assertNotHeld(held, { name: 'Max', status: undefined })).not.toThrow();
    expect(() => assertNotHeld(stored(), { status: 'sold' })).not.toThrow();
    expect(() => assertNotHeld(stored(), undefined)).not.toThrow();
  });
});

describe('replacement', () => {
  const record = { name: 'Rex', categoryId: 2, sex: 'male' as const, tags: ['calm'], attributes: { declawed: true } };

  it('sets the fields of the record and clears the others, nested objects whole', () => {
    const patch = replacement(record, stored());
    expect(patch).toMatchObject({ name: 'Rex', categoryId: 2, tags: ['calm'], description: null, location: null });
    expect(patch).toMatchObject({ attributes: { declawed: true }, environment: null });
  });

  it('changes the status only when the record names another', () => {
    expect(replacement(record, stored())).not.toHaveProperty('status');
    expect(replacement({ ...record, status: 'available' }, stored())).not.toHaveProperty('status');
    expect(replacement({ ...record, status: 'sold' }, stored())).toMatchObject({ status: 'sold' });
  });
});

describe('withChecks', () => {
  const failing = (code: string) => () => Promise.reject(Object.assign(new Error(`SQLSTATE ${code}`), { code }));

  it('refuses a category removed during the write as an unknown category', async () => {
    await expect(withChecks({ categoryId: 9 }, failing('23503'))).rejects.toBeInstanceOf(UnknownCategoryError);
  });

  it('refuses an external id another of the lister’s pets has', async () => {
    await expect(withChecks({ externalId: 'shelter-1' }, failing('23505'))).rejects.toBeInstanceOf(
      ExternalIdTakenError,
    );
  });

  it('passes any other failure on as it is, and gives back what the write wrote', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    await expect(withChecks({ categoryId: 1 }, () => Promise.reject(outage))).rejects.toBe(outage);
    await expect(withChecks({}, failing('23505'))).rejects.toThrow('SQLSTATE 23505');
    await expect(withChecks({}, async () => 'written')).resolves.toBe('written');
  });
});
