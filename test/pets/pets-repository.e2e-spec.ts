import { loadSettings } from '@app/core';
import { DatabaseSettings, dataSourceOptions, Sql } from '@app/database';
import { Pool } from 'pg';
import { SqlCounter } from '../../bench/support/sql-counter';
import { EventsRecorder } from '../../libs/events/src/events.recorder';
import { EventsRepository } from '../../libs/events/src/events.repository';
import { PetsRepository } from '../../libs/pets/src/pets.repository';
import { withDatabase } from '../support/database';
import { sqlOnPool } from '../support/doubles';
import { TEST_DATABASE_URL } from '../support/test-env';

/** No category has this id. */
const UNKNOWN_CATEGORY = 999_999;

/** A medium test: the repository's statements and their guards against the test database, nothing faked. */
describe('PetsRepository on PostgreSQL', () => {
  const { extra } = dataSourceOptions(loadSettings(DatabaseSettings, { DATABASE_URL: TEST_DATABASE_URL }));
  const database = new URL(TEST_DATABASE_URL);
  /** The repository's statements, counted on the wire. */
  const counter = new SqlCounter({ host: database.hostname, port: Number(database.port) });
  let pool: Pool;
  let sql: Sql;
  let repository: PetsRepository;
  /** Two listers of their own. */
  let lister: number;
  let other: number;

  /** The events recorded for a pet, oldest first, as [type, recipient]. */
  const eventsOf = (petId: number) =>
    withDatabase(async (client) => {
      const { rows } = await client.query<{ type: string; account_id: string }>(
        "SELECT type, account_id FROM events WHERE type LIKE 'pet.%' AND (object->>'id')::bigint = $1 ORDER BY seq",
        [petId],
      );
      return rows.map((row) => [row.type, Number(row.account_id)]);
    });
  const namesStored = (petIds: number[]) =>
    withDatabase(async (client) => {
      const { rows } = await client.query<{ name: string }>('SELECT name FROM pets WHERE id = ANY($1) ORDER BY id', [
        petIds,
      ]);
      return rows.map((row) => row.name);
    });
  /** A pet of its own, added alone. */
  const added = async (name: string, listerAccountId = lister) =>
    (await repository.insert({ name, categoryId: 1, listerAccountId }))!;

  beforeAll(async () => {
    database.port = String(await counter.listen());
    pool = new Pool({ ...extra, connectionString: database.toString(), max: 4 });
    sql = sqlOnPool(pool);
    repository = new PetsRepository(sql, new EventsRecorder(sql, new EventsRepository(sql)));
    await withDatabase(async (client) => {
      const ids = [];
      for (const name of ['lister', 'other']) {
        const email = `pets-repository-${name}-${process.pid}@example.com`;
        const { rows } = await client.query<{ id: string }>(
          `INSERT INTO accounts (email, email_canonical, plan) VALUES ($1::text, $1::text, 'free') RETURNING id`,
          [email],
        );
        ids.push(Number(rows[0]!.id));
      }
      [lister, other] = ids as [number, number];
    });
  });
  afterAll(async () => {
    await withDatabase(async (client) => {
      await client.query('DELETE FROM pets WHERE lister_account_id = ANY($1)', [[lister, other]]);
      await client.query('DELETE FROM accounts WHERE id = ANY($1)', [[lister, other]]);
    });
    await pool.end();
    await counter.close();
  });

  it('inserts pets added together with one statement, leaving out one of an unknown category, each with its pet.created event to its lister', async () => {
    counter.reset();
    const created = await Promise.all([
      repository.insert({ name: 'Rex', categoryId: 1, listerAccountId: lister }),
      repository.insert({ name: 'Nobody', categoryId: UNKNOWN_CATEGORY, listerAccountId: lister }),
      repository.insert({ name: 'Tom', categoryId: 2, status: 'pending', tags: ['calm'], listerAccountId: other }),
    ]);

    expect(counter.countOf('INSERT INTO pets')).toBe(1);
    expect(created[1]).toBeUndefined();
    const [rex, , tom] = created as [NonNullable<(typeof created)[0]>, undefined, NonNullable<(typeof created)[0]>];
    expect(tom.pet.id).toBeGreaterThan(rex.pet.id);
    expect(rex).toEqual({
      pet: {
        id: rex.pet.id,
        name: 'Rex',
        categoryId: 1,
        status: 'available',
        sex: 'unknown',
        photos: [],
        createdAt: expect.any(String),
        updatedAt: rex.pet.createdAt,
      },
      version: expect.stringMatching(/^\d+$/),
      listerAccountId: lister,
      hasOpenOrder: false,
    });
    expect(tom.pet).toMatchObject({ name: 'Tom', categoryId: 2, status: 'pending', tags: ['calm'] });
    expect(await repository.findById(rex.pet.id)).toEqual(rex);
    expect(await eventsOf(rex.pet.id)).toEqual([['pet.created', lister]]);
    expect(await eventsOf(tom.pet.id)).toEqual([['pet.created', other]]);
  });

  it('reads the pages asked for together with one statement, each page once, and tells where the next begins', async () => {
    // Five pets of their own, the odd ones sold: pages start after the pet before the first.
    const pets = [];
    for (let i = 1; i <= 5; i++) {
      const status = i % 2 ? 'sold' : 'available';
      pets.push((await repository.insert({ name: `Pet ${i}`, categoryId: 1, status, listerAccountId: lister }))!);
    }
    const ids = pets.map((stored) => stored.pet.id);
    const before = ids[0]! - 1;
    counter.reset();

    const [first, again, sold, last] = await Promise.all([
      repository.readPage({ afterId: before, limit: 2 }),
      repository.readPage({ afterId: before, limit: 2 }),
      repository.readPage({ status: 'sold', afterId: ids[0]!, limit: 5 }),
      repository.readPage({ afterId: ids[3]!, limit: 2 }),
    ]);
    expect(counter.statements).toBe(1);

    expect(first).toEqual({ pets: [pets[0]!.pet, pets[1]!.pet], lastId: ids[1] });
    expect(again).toBe(first);
    expect(sold).toEqual({ pets: [pets[2]!.pet, pets[4]!.pet], lastId: undefined });
    expect(last).toEqual({ pets: [pets[4]!.pet], lastId: undefined });
  });

  it('applies changes made together, a second change of a pet after the first, and refuses those its guard refuses', async () => {
    const [max, mine, spare] = [await added('Rex'), await added('Bella'), await added('Spare')];
    const notMine = await added('Not yours', other);

    const updated = await Promise.all([
      repository.update({ petId: max.pet.id, listerAccountId: lister, patch: { name: 'Max' } }),
      // Not the lister's pet.
      repository.update({ petId: notMine.pet.id, listerAccountId: lister, patch: { name: 'Taken' } }),
      // Made against the version before the first change of the batch: that change came first.
      repository.update({
        petId: max.pet.id,
        listerAccountId: lister,
        patch: { name: 'Stale' },
        versions: [max.version],
      }),
      repository.update({ petId: max.pet.id, listerAccountId: lister, patch: { description: 'Calm' } }),
      // A category that does not exist.
      repository.update({ petId: mine.pet.id, listerAccountId: lister, patch: { categoryId: UNKNOWN_CATEGORY } }),
      // A pet that does not exist.
      repository.update({ petId: spare.pet.id + 1_000_000, listerAccountId: lister, patch: { name: 'Ghost' } }),
      // Null clears a field, or sets its default.
      repository.update({ petId: spare.pet.id, listerAccountId: lister, patch: { sex: null, tags: null } }),
    ]);

    expect(updated.map((stored) => stored?.pet.name)).toEqual([
      'Max',
      undefined,
      undefined,
      'Max',
      undefined,
      undefined,
      'Spare',
    ]);
    expect(updated[3]!.pet.description).toBe('Calm');
    expect(updated[3]!.version).not.toBe(updated[0]!.version);
    expect(updated[6]!.pet).toMatchObject({ sex: 'unknown' });
    expect(updated[6]!.pet.tags).toBeUndefined();
    expect(await namesStored([max.pet.id, mine.pet.id, notMine.pet.id])).toEqual(['Max', 'Bella', 'Not yours']);
    expect(await eventsOf(max.pet.id)).toEqual([
      ['pet.created', lister],
      ['pet.updated', lister],
      ['pet.updated', lister],
    ]);
    expect(await eventsOf(notMine.pet.id)).toEqual([['pet.created', other]]);
  });

  it('applies a change made at one of the versions named, and refuses one made at none', async () => {
    const stored = await added('Rex');

    expect(
      await repository.update({
        petId: stored.pet.id,
        listerAccountId: lister,
        patch: { name: 'Stale' },
        versions: ['1'],
      }),
    ).toBeUndefined();
    const changed = await repository.update({
      petId: stored.pet.id,
      listerAccountId: lister,
      patch: { name: 'Max' },
      versions: ['1', stored.version],
    });
    expect(changed?.pet.name).toBe('Max');
  });

  it('removes a pet only for its lister and at a version named, giving the pet as it was', async () => {
    const stored = await added('Rex');

    expect(await repository.delete({ petId: stored.pet.id, listerAccountId: other })).toBeUndefined();
    expect(await repository.delete({ petId: stored.pet.id, listerAccountId: lister, versions: ['1'] })).toBeUndefined();
    expect(
      await repository.delete({ petId: stored.pet.id, listerAccountId: lister, versions: [stored.version] }),
    ).toEqual(stored);
    expect(await repository.findById(stored.pet.id)).toBeUndefined();
  });

  it('runs each insert and change alone inside a transaction, rolled back with it', async () => {
    const stored = await added('Rex');
    const failure = new Error('the rule refused it');
    let inserted: number[] = [];
    counter.reset();

    await expect(
      sql.transaction(async () => {
        const pets = await Promise.all([
          repository.insert({ name: 'Never', categoryId: 1, listerAccountId: lister }),
          repository.insert({ name: 'Stored', categoryId: 1, listerAccountId: lister }),
        ]);
        inserted = pets.map((pet) => pet!.pet.id);
        await repository.update({ petId: stored.pet.id, listerAccountId: lister, patch: { name: 'Max' } });
        // Seen inside, as it will not be outside.
        expect((await repository.findById(stored.pet.id))?.pet.name).toBe('Max');
        throw failure;
      }),
    ).rejects.toBe(failure);
    // A shared batch would carry this transaction's work into other requests' commits.
    expect(counter.countOf('INSERT INTO pets')).toBe(2);
    expect(inserted).toHaveLength(2);
    expect(await namesStored([stored.pet.id, ...inserted])).toEqual(['Rex']);
    expect(await eventsOf(stored.pet.id)).toEqual([['pet.created', lister]]);
  });
});
