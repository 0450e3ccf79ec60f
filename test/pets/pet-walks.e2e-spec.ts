import { Client } from 'pg';
import { sql } from '@app/database';
import { PET_CHANGE } from '@app/pets';
import { createApiApp } from '../support/api-app';
import { truncatePets, waitsForPetChangeClock } from '../support/database';
import { createPet, TestAccount, TestPet } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { PetsSuite, startPetsSuite, walkPages } from '../support/pets';
import { waitFor } from '../support/processes';

/** Walks that pets change under, on one process and across several. */
describe('walks of the catalogue while pets change', () => {
  let suite: PetsSuite;
  let app: TestHttpApp;
  let account: TestAccount;
  let pets: TestPet[];

  const patch = (http: TestHttpApp, petId: number, body: object) =>
    http.http.patch(`/v1/pets/${petId}`).set(account.auth).send(body).expect(200);

  beforeEach(async () => {
    suite ??= await startPetsSuite('pets_walks');
    ({ app, account } = suite);
    await truncatePets(suite.database.url);
    pets = [];
    for (let i = 0; i < 24; i++) {
      pets.push(await createPet(app.http, account, { name: `Walker ${i}`, size: i % 2 ? 'small' : 'large' }));
    }
  });
  afterAll(() => suite.close());

  it.each(['sort=updatedAt', 'sort=updatedAt&size=small', 'sort=-createdAt', 'size=small', 'sort=id&q=walker'])(
    'visits every matching pet with %s while pets are changed and added, each change of a seen pet seen again',
    async (query) => {
      const changed = new Map<number, string>();
      const walk = await walkPages(app, account, `/v1/pets?limit=3&${query}`, async (page) => {
        // Between the first pages: a pet from the start of the catalogue, one from its end, and a new one.
        if (page > 5) return;
        for (const pet of [pets[page - 1]!, pets[pets.length - page]!]) {
          const response = await patch(app, pet.id, { description: `Changed on page ${page}` });
          changed.set(pet.id, response.body.updatedAt);
        }
        await createPet(app.http, account, { name: `Walker added ${page}`, size: 'small' });
      });
      const matching = pets.filter((pet) => !query.includes('size=small') || pet.size === 'small');
      expect(walk.seen).toEqual(expect.arrayContaining(matching.map((pet) => pet.id)));
      if (query.includes('updatedAt')) {
        // A pet changed during the walk is seen again at its new place, with its last change.
        const lastSeen = new Map(walk.pets.map((pet) => [pet.id, pet.updatedAt]));
        for (const [id, updatedAt] of changed) {
          if (matching.some((pet) => pet.id === id)) expect(lastSeen.get(id)).toBe(updatedAt);
        }
      } else {
        expect(new Set(walk.seen).size).toBe(walk.seen.length);
      }
    },
  );

  it('never lets a change commit after a later one, even from another process: the updatedAt walk skips none', async () => {
    const other = await createApiApp({ env: { DATABASE_URL: suite.database.url } });
    const inFlight = new Client({ connectionString: suite.database.url });
    await inFlight.connect();
    try {
      const [early, late] = [pets[3]!, pets[5]!];
      // A change of `early` draws its time and stays uncommitted, as a slow process's would.
      await inFlight.query('BEGIN');
      const change = sql`WITH ${PET_CHANGE} UPDATE pets SET name = 'Early', updated_at = pet_change.changed_at
                           FROM pet_change WHERE id = ${early.id}`;
      await inFlight.query(change.text, [...change.values]);
      // Sent at once (a supertest request starts when awaited).
      const later = Promise.resolve(patch(other, late.id, { name: 'Late' }));
      await waitFor(() => waitsForPetChangeClock(suite.database.url), 10000, 'the later change waiting for the clock');
      // Meanwhile a mirror walks to the end: neither change is there yet.
      const before = await walkPages(app, account, '/v1/pets?limit=5&sort=updatedAt');
      expect(before.pets.find((pet) => pet.id === late.id)?.name).toBe(late.name);
      await inFlight.query('COMMIT');
      const lateAnswer = await later;
      const early_ = (await app.http.get(`/v1/pets/${early.id}`).set(account.auth)).body;
      expect(Date.parse(lateAnswer.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(early_.updatedAt));
      // Resuming after the last pet it saw, the mirror finds both changes, the early one first.
      const last = before.pets.at(-1)!;
      const resumed = await walkPages(
        app,
        account,
        `/v1/pets?limit=5&sort=updatedAt&updatedSince=${encodeURIComponent(last.updatedAt as string)}`,
      );
      const order = resumed.seen.filter((id) => id === early.id || id === late.id);
      expect(order).toEqual([early.id, late.id]);
    } finally {
      await inFlight.end();
      await other.close();
    }
  });
});
