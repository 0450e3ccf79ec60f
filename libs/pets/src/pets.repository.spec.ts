import { Sql } from '@app/database';
import { PET_IDS_LOCK, PetsRepository } from './pets.repository';

type Values = [Array<string | null>, number[], number[] | string[], number?];

/**
 * A catalogue of pets 1 to 5 (odd ones `sold`) in category 1, which answers the page read and the INSERT
 * as PostgreSQL would; category 9 does not exist.
 */
function setUp() {
  const sql = new Sql({} as ConstructorParameters<typeof Sql>[0]);
  const catalogue = [1, 2, 3, 4, 5].map((id) => ({
    id: String(id),
    name: `Pet ${id}`,
    category_id: '1',
    status: id % 2 ? 'sold' : 'available',
  }));
  let nextId = 6;
  const rows = jest.spyOn(sql, 'rows').mockImplementation(async (text: string, values: unknown[] = []) => {
    const [first, second, third] = values as Values;
    if (text.includes('INSERT INTO pets')) {
      return (first as string[]).flatMap((name, i) => {
        const id = String(nextId++);
        if (second[i] === 9) return [];
        return [{ id, name, category_id: String(second[i]), status: third[i], position: String(i + 1) }];
      });
    }
    return first.flatMap((status, i) =>
      catalogue
        .filter((pet) => (status === null || pet.status === status) && Number(pet.id) > second[i]!)
        .slice(0, third[i] as number)
        .map((pet) => ({ ...pet, position: String(i + 1) })),
    );
  });
  const inTransaction = jest.spyOn(sql, 'inTransaction', 'get').mockReturnValue(false);
  return { repository: new PetsRepository(sql), rows, inTransaction };
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
    expect(rows.mock.calls[0]![1]).toEqual([
      [null, 'sold', null],
      [0, 1, 4],
      [3, 6, 3],
    ]);
    expect(first!.pets.map((pet) => pet.id)).toEqual([1, 2]);
    expect(first!.lastId).toBe(2);
    expect(again).toBe(first);
    expect(sold).toEqual({
      pets: [
        { id: 3, name: 'Pet 3', categoryId: 1, status: 'sold' },
        { id: 5, name: 'Pet 5', categoryId: 1, status: 'sold' },
      ],
      lastId: undefined,
    });
    expect(last!.pets.map((pet) => pet.id)).toEqual([5]);
  });

  it('inserts the pets added together with one statement under the id lock, leaving out an unknown category', async () => {
    const { repository, rows } = setUp();
    const created = await Promise.all([
      repository.insert({ name: 'Rex', categoryId: 1 }),
      repository.insert({ name: 'Nobody', categoryId: 9 }),
      repository.insert({ name: 'Tom', categoryId: 1, status: 'pending' }),
    ]);

    expect(rows).toHaveBeenCalledTimes(1);
    expect(rows.mock.calls[0]![0]).toMatch(/pg_advisory_xact_lock\(\$4\).*nextval\('pets_id_seq'\).*INSERT INTO pets/s);
    expect(rows.mock.calls[0]![1]).toEqual([
      ['Rex', 'Nobody', 'Tom'],
      [1, 9, 1],
      ['available', 'available', 'pending'],
      PET_IDS_LOCK,
    ]);
    expect(created).toEqual([
      { id: 6, name: 'Rex', categoryId: 1, status: 'available' },
      undefined,
      { id: 8, name: 'Tom', categoryId: 1, status: 'pending' },
    ]);
  });

  it('runs each read and insert alone inside a transaction', async () => {
    const { repository, rows, inTransaction } = setUp();
    inTransaction.mockReturnValue(true);
    await Promise.all([repository.readPage({ afterId: 0, limit: 2 }), repository.readPage({ afterId: 0, limit: 2 })]);
    await Promise.all([
      repository.insert({ name: 'Rex', categoryId: 1 }),
      repository.insert({ name: 'Tom', categoryId: 1 }),
    ]);
    expect(rows.mock.calls.map(([, values]) => values![0])).toEqual([[null], [null], ['Rex'], ['Tom']]);
  });
});
