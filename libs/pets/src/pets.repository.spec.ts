import { Sql, SqlFragment } from '@app/database';
import type { EventsRecorder } from '@app/events';
import { PET_IDS_LOCK, PetsRepository } from './pets.repository';

type Values = [Array<string | null>, number[], number[]];

const CHANGED_AT = new Date('2026-06-01T00:00:00Z');

/** A row as PostgreSQL returns it, with the optional fields never set. */
const storedRow = (id: string, name: string, categoryId: string, status: string) => ({
  id,
  name,
  category_id: categoryId,
  status,
  description: null,
  breed: null,
  sex: 'unknown',
  age_group: null,
  size: null,
  tags: null,
  photo_urls: null,
  latitude: null,
  longitude: null,
  created_at: CHANGED_AT,
  updated_at: CHANGED_AT,
  lister_account_id: '1',
  has_open_order: false,
  spayed_neutered: null,
  house_trained: null,
  declawed: null,
  special_needs: null,
  shots_current: null,
  special_needs_notes: null,
  good_with_children: null,
  good_with_dogs: null,
  good_with_cats: null,
  coat: null,
  colors: null,
  secondary_breed: null,
  mixed_breed: null,
  external_id: null,
  organization_id: null,
  version: '1780272000000000',
});

/** The Pet made of a row from storedRow. */
const pet = (id: number, name: string, status: string) => ({
  id,
  name,
  categoryId: 1,
  status,
  sex: 'unknown',
  createdAt: CHANGED_AT.toISOString(),
  updatedAt: CHANGED_AT.toISOString(),
});

/**
 * A catalogue of pets 1 to 5 (odd ones `sold`) in category 1, which answers the page read and the INSERT
 * as PostgreSQL would; category 9 does not exist.
 */
function setUp() {
  const sql = new Sql({} as ConstructorParameters<typeof Sql>[0]);
  const catalogue = [1, 2, 3, 4, 5].map((id) => storedRow(String(id), `Pet ${id}`, '1', id % 2 ? 'sold' : 'available'));
  let nextId = 6;
  const rows = jest.spyOn(sql, 'rows').mockImplementation(async (statement: SqlFragment | string) => {
    const { text, values } = statement as unknown as SqlFragment;
    if (text.includes('INSERT INTO pets')) {
      const batch = JSON.parse(values[0] as string) as Array<{
        name: string;
        category_id: number;
        status: string;
        lister_account_id: number;
      }>;
      return batch.flatMap((inserted, i) => {
        const id = String(nextId++);
        if (inserted.category_id === 9) return [];
        return [
          {
            ...storedRow(id, inserted.name, String(inserted.category_id), inserted.status),
            lister_account_id: String(inserted.lister_account_id),
            position: String(i + 1),
          },
        ];
      });
    }
    if (text.includes('UPDATE pets')) {
      const batch = JSON.parse(values[0] as string) as Array<{
        pet_id: number;
        patch: { name?: string };
        lister: number;
        versions: string[] | null;
      }>;
      // The guard, as far as these tests need it: the pet exists, is the lister's and at one of the versions.
      return batch.flatMap((change, i) => {
        const current = catalogue.find((row) => Number(row.id) === change.pet_id);
        if (!current || Number(current.lister_account_id) !== change.lister) return [];
        if (change.versions && !change.versions.includes(current.version)) return [];
        return [{ ...current, ...change.patch, position: String(i + 1) }];
      });
    }
    const [first, second, third] = values as Values;
    return first.flatMap((status, i) =>
      catalogue
        .filter((pet) => (status === null || pet.status === status) && Number(pet.id) > second[i]!)
        .slice(0, third[i])
        .map((pet) => ({ ...pet, position: String(i + 1) })),
    );
  });
  const query = jest
    .spyOn(sql, 'query')
    .mockResolvedValue({ rows: [] } as unknown as Awaited<ReturnType<Sql['query']>>);
  const inTransaction = jest.spyOn(sql, 'inTransaction', 'get').mockReturnValue(false);
  const transaction = jest.spyOn(sql, 'transaction').mockImplementation((work) => work());
  const recordAll = jest.fn().mockResolvedValue(undefined);
  const events = { recordAll } as unknown as EventsRecorder;
  return { repository: new PetsRepository(sql, events), rows, query, inTransaction, transaction, recordAll };
}

describe('PetsRepository', () => {
  it('reads the pages asked for together with one statement, each page once, and tells where the next begins', async () => {
    const { repository, rows } = setUp();
    const [first, again, sold, last] = await Promise.all([
      repository.readPage({ afterId: 0, limit: 2 }),
      repository.readPage({ afterId: 0, limit: 2 }),
      repository.readPage({ status: 'sold', afterId: 1, limit: 5 }),
      repository.readPage({ afterId: 4, limit: 2 }),
    ]);

    expect(rows).toHaveBeenCalledTimes(1);
    expect((rows.mock.calls[0]![0] as unknown as SqlFragment).values).toEqual([
      [null, 'sold', null],
      [0, 1, 4],
      [3, 6, 3],
    ]);
    expect(first!.pets.map((pet) => pet.id)).toEqual([1, 2]);
    expect(first!.lastId).toBe(2);
    expect(again).toBe(first);
    expect(sold).toEqual({
      pets: [pet(3, 'Pet 3', 'sold'), pet(5, 'Pet 5', 'sold')],
      lastId: undefined,
    });
    expect(last!.pets.map((pet) => pet.id)).toEqual([5]);
  });

  it('inserts the pets added together with one statement under the id lock and the change clock, leaving out an unknown category', async () => {
    const { repository, rows, query, transaction, recordAll } = setUp();
    const created = await Promise.all([
      repository.insert({ name: 'Rex', categoryId: 1, listerAccountId: 1 }),
      repository.insert({ name: 'Nobody', categoryId: 9, listerAccountId: 1 }),
      repository.insert({ name: 'Tom', categoryId: 1, status: 'pending', tags: ['calm'], listerAccountId: 2 }),
    ]);

    // The id lock first, in a statement of its own, then the clock and the ids in the INSERT.
    const lock = query.mock.calls[0]![0] as unknown as SqlFragment;
    expect(lock.text).toMatch(/pg_advisory_xact_lock\(\$1\)/);
    expect(lock.values).toEqual([PET_IDS_LOCK]);
    expect(rows).toHaveBeenCalledTimes(1);
    const insert = rows.mock.calls[0]![0] as unknown as SqlFragment;
    expect(insert.text).toMatch(/UPDATE pet_change_clock.*nextval\('pets_id_seq'\).*INSERT INTO pets/s);
    const [batch] = insert.values;
    expect(JSON.parse(batch as string)).toEqual([
      { name: 'Rex', category_id: 1, status: 'available', sex: 'unknown', lister_account_id: 1 },
      { name: 'Nobody', category_id: 9, status: 'available', sex: 'unknown', lister_account_id: 1 },
      { name: 'Tom', category_id: 1, status: 'pending', sex: 'unknown', tags: ['calm'], lister_account_id: 2 },
    ]);
    expect(created.map((stored) => stored?.pet)).toEqual([
      pet(6, 'Rex', 'available'),
      undefined,
      pet(8, 'Tom', 'pending'),
    ]);
    expect(created[0]).toMatchObject({ version: '1780272000000000', listerAccountId: 1, hasOpenOrder: false });
    // Their events, to each lister, with one INSERT in the batch's transaction.
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(recordAll).toHaveBeenCalledWith([
      { recipientAccountId: 1, type: 'pet.created', object: created[0]!.pet, createdAt: created[0]!.pet.updatedAt },
      { recipientAccountId: 2, type: 'pet.created', object: created[2]!.pet, createdAt: created[2]!.pet.updatedAt },
    ]);
  });

  it('applies the changes made together with one guarded statement under the change clock, a second change of a pet in a statement after the first, and records their events with one INSERT', async () => {
    const { repository, rows, transaction, recordAll } = setUp();
    const updated = await Promise.all([
      repository.update({ petId: 2, listerAccountId: 1, patch: { name: 'Max' } }),
      repository.update({ petId: 4, listerAccountId: 2, patch: { name: 'Not mine' } }),
      repository.update({ petId: 2, listerAccountId: 1, patch: { name: 'Again' }, versions: ['1780272000000000'] }),
      repository.update({ petId: 9, listerAccountId: 1, patch: { categoryId: 3, location: null, sex: null } }),
    ]);

    expect(rows).toHaveBeenCalledTimes(2);
    expect((rows.mock.calls[0]![0] as unknown as SqlFragment).text).toMatch(
      /UPDATE pet_change_clock.*UPDATE pets p.*FROM pet_change, change/s,
    );
    expect(
      rows.mock.calls.map(([statement]) => JSON.parse((statement as unknown as SqlFragment).values[0] as string)),
    ).toEqual([
      [
        { pet_id: 2, patch: { name: 'Max' }, lister: 1, versions: null },
        { pet_id: 4, patch: { name: 'Not mine' }, lister: 2, versions: null },
        {
          pet_id: 9,
          patch: { category_id: 3, latitude: null, longitude: null, sex: 'unknown' },
          lister: 1,
          versions: null,
        },
      ],
      [{ pet_id: 2, patch: { name: 'Again' }, lister: 1, versions: ['1780272000000000'] }],
    ]);
    expect(updated.map((stored) => stored?.pet.name)).toEqual(['Max', undefined, 'Again', undefined]);
    // Their events, in the order the changes applied, with one INSERT in the batch's transaction.
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(recordAll).toHaveBeenCalledTimes(1);
    expect(recordAll).toHaveBeenCalledWith([
      { recipientAccountId: 1, type: 'pet.updated', object: updated[0]!.pet, createdAt: updated[0]!.pet.updatedAt },
      { recipientAccountId: 1, type: 'pet.updated', object: updated[2]!.pet, createdAt: updated[2]!.pet.updatedAt },
    ]);
  });

  it('runs each read, insert and change alone inside a transaction', async () => {
    const { repository, rows, inTransaction } = setUp();
    inTransaction.mockReturnValue(true);
    await Promise.all([repository.readPage({ afterId: 0, limit: 2 }), repository.readPage({ afterId: 0, limit: 2 })]);
    await Promise.all([
      repository.insert({ name: 'Rex', categoryId: 1, listerAccountId: 1 }),
      repository.insert({ name: 'Tom', categoryId: 1, listerAccountId: 1 }),
    ]);
    await Promise.all([
      repository.update({ petId: 2, listerAccountId: 1, patch: { name: 'Max' } }),
      repository.update({ petId: 4, listerAccountId: 1, patch: { name: 'Toby' } }),
    ]);
    const names = rows.mock.calls.map(([statement]) => {
      const { text, values } = statement as unknown as SqlFragment;
      return /INSERT|UPDATE/.test(text)
        ? JSON.parse(values[0] as string).map(
            (row: { name?: string; patch?: { name: string } }) => row.name ?? row.patch?.name,
          )
        : values[0];
    });
    expect(names).toEqual([[null], [null], ['Rex'], ['Tom'], ['Max'], ['Toby']]);
  });
});
