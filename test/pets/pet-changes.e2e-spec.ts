import { AccountsService } from '@app/accounts';
import { Sql } from '@app/database';
import { PetsService } from '@app/pets';
import { createApiApp } from '../support/api-app';
import { OpenApiTraffic } from '../support/openapi-traffic';
import { withDatabase } from '../support/database';
import { createPet, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';

type PetChange = Parameters<PetsService['update']>[0];
type Outcome = PromiseSettledResult<Awaited<ReturnType<PetsService['update']>>>;

/** The pet after a change that applied. */
function applied(outcome: Outcome | undefined) {
  if (outcome?.status !== 'fulfilled') throw new Error(`the change was refused: ${String(outcome?.reason)}`);
  return outcome.value.pet;
}

/** The error of a change that was refused. */
function refusal(outcome: Outcome | undefined): { code: string; status: number; message: string } {
  if (outcome?.status !== 'rejected') throw new Error('the change applied');
  return outcome.reason;
}

/** Changes and removal of a pet by its lister, conditional requests and the open-order guard. */
describe('changing and removing pets', () => {
  // Every exchange of this suite is checked against the committed document, as a validating proxy would.
  const traffic = new OpenApiTraffic('openapi.json', '/v1');
  let app: TestHttpApp;
  let lister: TestAccount;
  let stranger: TestAccount;

  const patch = (petId: number, body: unknown, account = lister) =>
    app.http
      .patch(`/v1/pets/${petId}`)
      .set(account.auth)
      .send(body as object);
  const setOpenOrder = (petId: number, orderId: number | null) =>
    withDatabase((client) => client.query('UPDATE pets SET open_order_id = $2 WHERE id = $1', [petId, orderId]));

  beforeAll(async () => {
    app = await createApiApp({ traffic });
    lister = await signUp(app.http);
    stranger = await signUp(app.http);
    await app.app.get(AccountsService).setPlan(lister.email, 'business');
  });
  afterAll(() => app.close());

  describe('PATCH /v1/pets/{petId} (updatePet)', () => {
    it('changes the fields given, keeps the others, moves updatedAt and the ETag, and answers the whole pet', async () => {
      const created = await app.http
        .post('/v1/pets')
        .set(lister.auth)
        .send({ name: 'Rex', categoryId: 1, breed: 'Beagle', tags: ['calm'] })
        .expect(201);
      const response = await patch(created.body.id, { name: '  Max ', ageGroup: 'adult', breed: null }).expect(200);
      expect(response.body).toEqual({
        ...created.body,
        name: 'Max',
        ageGroup: 'adult',
        breed: undefined,
        updatedAt: expect.any(String),
      });
      expect(response.body).not.toHaveProperty('breed');
      expect(Date.parse(response.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.updatedAt));
      expect(response.headers.etag).toMatch(/^"[0-9]+"$/);
      expect(response.headers.etag).not.toBe(created.headers.etag);
      const fetched = await app.http.get(`/v1/pets/${created.body.id}`).set(lister.auth).expect(200);
      expect(fetched.body).toEqual(response.body);
      expect(fetched.headers.etag).toBe(response.headers.etag);
    });

    it('takes an RFC 7396 merge patch, where null clears a field and sex goes back to unknown', async () => {
      const pet = await createPet(app.http, lister, { sex: 'female', location: { latitude: 1, longitude: 2 } });
      const response = await app.http
        .patch(`/v1/pets/${pet.id}`)
        .set(lister.auth)
        .set('Content-Type', 'application/merge-patch+json')
        .send(JSON.stringify({ sex: null, location: null, status: 'pending' }))
        .expect(200);
      expect(response.body).toMatchObject({ sex: 'unknown', status: 'pending' });
      expect(response.body).not.toHaveProperty('location');
    });

    it.each(['application/merge-patch+json', 'application/json'])(
      'merges a nested object member by member (RFC 7396), sent as %s',
      async (type) => {
        const pet = await createPet(app.http, lister, { location: { latitude: 10, longitude: 20 } });
        const patch = (body: object) =>
          app.http.patch(`/v1/pets/${pet.id}`).set(lister.auth).set('Content-Type', type).send(JSON.stringify(body));
        expect((await patch({ location: { latitude: 11 } }).expect(200)).body.location).toEqual({
          latitude: 11,
          longitude: 20,
        });
        expect((await patch({ location: { longitude: -5 }, name: 'Max' }).expect(200)).body).toMatchObject({
          name: 'Max',
          location: { latitude: 11, longitude: -5 },
        });
        // A member removed leaves a location without it, which is validated after the merge and refused.
        const removed = await patch({ location: { latitude: null } }).expect(400);
        expect(removed.body).toMatchObject({
          code: 'validation_failed',
          message: expect.stringMatching(/^location\.latitude/),
        });
        const fetched = await app.http.get(`/v1/pets/${pet.id}`).set(lister.auth).expect(200);
        expect(fetched.body.location).toEqual({ latitude: 11, longitude: -5 });
      },
    );

    it('validates a nested merge against the pet as it is: half a location on a pet without one is refused', async () => {
      const pet = await createPet(app.http, lister);
      const response = await app.http
        .patch(`/v1/pets/${pet.id}`)
        .set(lister.auth)
        .set('Content-Type', 'application/merge-patch+json')
        .send(JSON.stringify({ location: { latitude: 11 } }))
        .expect(400);
      expect(response.body).toMatchObject({
        code: 'validation_failed',
        message: expect.stringMatching(/^location\.longitude must be a number/),
      });
      // Another account's pet is not merged over, nor validated: it is not the caller's to change.
      const other = await signUp(app.http);
      await app.http
        .patch(`/v1/pets/${pet.id}`)
        .set(other.auth)
        .send({ location: { latitude: 11 } })
        .expect(403);
    });

    it('refuses a merge patch on routes that take only JSON', async () => {
      const response = await app.http
        .post('/v1/pets')
        .set(lister.auth)
        .set('Content-Type', 'application/merge-patch+json')
        .send(JSON.stringify({ name: 'Rex', categoryId: 1 }))
        .expect(400);
      expect(response.body).toMatchObject({ code: 'unsupported_content_type' });
    });

    it.each([
      ['an empty object', {}, 'field'],
      ['a null name', { name: null }, 'name'],
      ['a null categoryId', { categoryId: null }, 'categoryId'],
      ['a null status', { status: null }, 'status'],
      ['a read-only id', { id: 5 }, 'id'],
      ['a read-only createdAt', { createdAt: '2026-01-01T00:00:00Z' }, 'createdAt'],
      ['a read-only updatedAt', { updatedAt: '2026-01-01T00:00:00Z' }, 'updatedAt'],
      ['an unknown field', { colour: 'brown' }, 'colour'],
      ['an unknown category', { categoryId: 999 }, 'categoryId'],
      ['an invalid sex', { sex: 'other' }, 'sex'],
      ['a location without longitude', { location: { latitude: 1 } }, 'location.longitude'],
    ])('refuses %s with 400 validation_failed naming the field, changing nothing', async (_case, body, field) => {
      const pet = await createPet(app.http, lister);
      const response = await patch(pet.id, body).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(response.body.message).toContain(field);
      const fetched = await app.http.get(`/v1/pets/${pet.id}`).set(lister.auth).expect(200);
      expect(fetched.body).toEqual(pet);
    });

    it('lets only the lister change a pet: 403 forbidden for another account, and for a pet without lister', async () => {
      const pet = await createPet(app.http, lister);
      const refused = await patch(pet.id, { name: 'Mine' }, stranger).expect(403);
      expect(refused.body).toEqual({ code: 'forbidden', message: expect.any(String), status: 403 });
      await app.http.delete(`/v1/pets/${pet.id}`).set(stranger.auth).expect(403);
      const older = await createPet(app.http, lister);
      await withDatabase((client) =>
        client.query('UPDATE pets SET lister_account_id = NULL WHERE id = $1', [older.id]),
      );
      await patch(older.id, { name: 'Mine' }).expect(403);
      await app.http.delete(`/v1/pets/${older.id}`).set(lister.auth).expect(403);
      const fetched = await app.http.get(`/v1/pets/${pet.id}`).set(stranger.auth).expect(200);
      expect(fetched.body).toEqual(pet);
      expect(Object.keys(fetched.body).filter((key) => /lister|account/i.test(key))).toEqual([]);
    });

    it('answers 404 for an unknown pet and 400 for a malformed id', async () => {
      await patch(987654321, { name: 'Nobody' }).expect(404);
      await patch(0, { name: 'Nobody' }).expect(400);
    });

    it('refuses a status change, but not another change, while the pet has an open order: 409 pet_has_open_order', async () => {
      const pet = await createPet(app.http, lister);
      await setOpenOrder(pet.id, 42);
      const refused = await patch(pet.id, { status: 'sold' }).expect(409);
      expect(refused.body).toEqual({ code: 'pet_has_open_order', message: expect.any(String), status: 409 });
      await patch(pet.id, { description: 'Still here' }).expect(200);
      const removal = await app.http.delete(`/v1/pets/${pet.id}`).set(lister.auth).expect(409);
      expect(removal.body.code).toBe('pet_has_open_order');
      await setOpenOrder(pet.id, null);
      await patch(pet.id, { status: 'sold' }).expect(200);
      await app.http.delete(`/v1/pets/${pet.id}`).set(lister.auth).expect(204);
    });
  });

  describe('conditional requests', () => {
    it('carries a strong ETag on create and fetch, and answers 304 to If-None-Match naming it', async () => {
      const created = await app.http.post('/v1/pets').set(lister.auth).send({ name: 'Rex', categoryId: 1 });
      const etag = created.headers.etag as string;
      expect(etag).toMatch(/^"[0-9]+"$/);
      for (const condition of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
        const response = await app.http
          .get(`/v1/pets/${created.body.id}`)
          .set(lister.auth)
          .set('If-None-Match', condition)
          .expect(304);
        expect(response.text).toBe('');
        expect(response.headers.etag).toBe(etag);
      }
      await app.http.get(`/v1/pets/${created.body.id}`).set(lister.auth).set('If-None-Match', '"other"').expect(200);
    });

    it('applies a PATCH or DELETE only when If-Match names the current ETag (or is *), else 412 changing nothing', async () => {
      const created = await app.http.post('/v1/pets').set(lister.auth).send({ name: 'Rex', categoryId: 1 });
      const first = created.headers.etag as string;
      // A comma inside a quoted tag does not split the list (RFC 9110 8.8.3).
      const changed = await patch(created.body.id, { name: 'Max' }).set('If-Match', `"1,2", ${first}`).expect(200);
      for (const stale of [first, `W/${changed.headers.etag}`, '"not-a-version"']) {
        const refused = await patch(created.body.id, { name: 'Late' }).set('If-Match', stale).expect(412);
        expect(refused.body).toEqual({ code: 'precondition_failed', message: expect.any(String), status: 412 });
        await app.http.delete(`/v1/pets/${created.body.id}`).set(lister.auth).set('If-Match', stale).expect(412);
      }
      const fetched = await app.http.get(`/v1/pets/${created.body.id}`).set(lister.auth).expect(200);
      expect(fetched.body.name).toBe('Max');
      await patch(created.body.id, { name: 'Any' }).set('If-Match', '*').expect(200);
      const current = (await app.http.get(`/v1/pets/${created.body.id}`).set(lister.auth)).headers.etag as string;
      await app.http.delete(`/v1/pets/${created.body.id}`).set(lister.auth).set('If-Match', current).expect(204);
    });

    it('refuses a malformed If-Match with 400', async () => {
      const pet = await createPet(app.http, lister);
      const response = await patch(pet.id, { name: 'Max' }).set('If-Match', 'no-quotes').expect(400);
      expect(response.body.message).toContain('If-Match');
    });

    it('lets exactly one of many concurrent PATCHes with the same If-Match win; the others get 412', async () => {
      for (let round = 0; round < 5; round++) {
        const created = await app.http.post('/v1/pets').set(lister.auth).send({ name: 'Contested', categoryId: 1 });
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            patch(created.body.id, { name: `Winner ${i}` }).set('If-Match', created.headers.etag as string),
          ),
        );
        const statuses = answers.map((answer) => answer.status).sort();
        expect(statuses).toEqual([200, ...Array(7).fill(412)]);
        const winner = answers.find((answer) => answer.status === 200)!;
        const fetched = await app.http.get(`/v1/pets/${created.body.id}`).set(lister.auth).expect(200);
        expect(fetched.body.name).toBe(winner.body.name);
      }
    });
  });

  describe('changes made together', () => {
    /** Makes the changes in one turn of the event loop, as concurrent requests do, so they share a batch. */
    const together = (changes: Array<Omit<PetChange, 'listerAccountId'>>) =>
      Promise.allSettled(
        changes.map((change) => app.app.get(PetsService).update({ ...change, listerAccountId: lister.accountId })),
      );
    const versionOf = async (petId: number) =>
      JSON.parse((await app.http.get(`/v1/pets/${petId}`).set(lister.auth).expect(200)).headers.etag as string);
    const updatesOf = async (petId: number) =>
      withDatabase(async (client) => {
        const { rows } = await client.query<{ object: { name: string; description?: string } }>(
          `SELECT object FROM events WHERE type = 'pet.updated' AND (object ->> 'id')::bigint = $1 ORDER BY seq`,
          [petId],
        );
        return rows.map(({ object }) => ({ name: object.name, description: object.description }));
      });

    it('answers each change as if it were alone: a good one, an unknown category, a stale If-Match, and three of one pet', async () => {
      const [good, unknownCategory, stale, contested] = [
        await createPet(app.http, lister, { name: 'Good' }),
        await createPet(app.http, lister, { name: 'Unknown category' }),
        await createPet(app.http, lister, { name: 'Stale' }),
        await createPet(app.http, lister, { name: 'Contested' }),
      ];
      const staleVersion = await versionOf(stale.id);
      const changedMeanwhile = await patch(stale.id, { name: 'Changed meanwhile' }).expect(200);
      const contestedVersion = await versionOf(contested.id);

      const [kept, refusedCategory, refusedStale, first, second, third] = await together([
        { petId: good.id, patch: { name: 'Better' } },
        { petId: unknownCategory.id, patch: { categoryId: 999, name: 'Never' } },
        { petId: stale.id, patch: { name: 'Late' }, versions: [staleVersion] },
        { petId: contested.id, patch: { name: 'First' }, versions: [contestedVersion] },
        { petId: contested.id, patch: { name: 'Second' }, versions: [contestedVersion] },
        { petId: contested.id, patch: { description: 'Third' } },
      ]);

      expect(applied(kept)).toMatchObject({ name: 'Better' });
      expect(refusal(refusedCategory)).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(refusal(refusedCategory).message).toContain('categoryId');
      expect(refusal(refusedStale)).toMatchObject({ code: 'precondition_failed', status: 412 });
      expect(applied(first)).toMatchObject({ name: 'First' });
      expect(refusal(second)).toMatchObject({ code: 'precondition_failed', status: 412 });
      expect(applied(third)).toMatchObject({ name: 'First', description: 'Third' });
      // One statement changed the first pets together, at one time; the third change of the contested pet
      // came after the first, later.
      expect(applied(first).updatedAt).toBe(applied(kept).updatedAt);
      expect(Date.parse(applied(third).updatedAt)).toBeGreaterThan(Date.parse(applied(first).updatedAt));

      const fetched = async (petId: number) =>
        (await app.http.get(`/v1/pets/${petId}`).set(lister.auth).expect(200)).body;
      expect(await fetched(good.id)).toEqual(applied(kept));
      expect(await fetched(unknownCategory.id)).toEqual(unknownCategory);
      expect(await fetched(stale.id)).toEqual(changedMeanwhile.body);
      expect(await fetched(contested.id)).toEqual(applied(third));
      // An event for each change that applied, in the order they applied, and none for the others.
      expect(await updatesOf(good.id)).toEqual([{ name: 'Better' }]);
      expect(await updatesOf(unknownCategory.id)).toEqual([]);
      expect(await updatesOf(stale.id)).toEqual([{ name: 'Changed meanwhile' }]);
      expect(await updatesOf(contested.id)).toEqual([{ name: 'First' }, { name: 'First', description: 'Third' }]);
    });

    it('applies a change made inside a transaction on its connection, committed or rolled back with the rest', async () => {
      const pet = await createPet(app.http, lister, { name: 'Rex' });
      const sql = app.app.get(Sql);
      const refused = new Error('the rest of the work failed');
      await expect(
        sql.transaction(async () => {
          const [rolledBack] = await together([{ petId: pet.id, patch: { name: 'Rolled back' } }]);
          expect(applied(rolledBack).name).toBe('Rolled back');
          throw refused;
        }),
      ).rejects.toBe(refused);
      expect((await app.http.get(`/v1/pets/${pet.id}`).set(lister.auth).expect(200)).body).toEqual(pet);
      expect(await updatesOf(pet.id)).toEqual([]);

      const [committed] = await sql.transaction(() => together([{ petId: pet.id, patch: { name: 'Committed' } }]));
      expect(applied(committed).name).toBe('Committed');
      expect((await app.http.get(`/v1/pets/${pet.id}`).set(lister.auth).expect(200)).body.name).toBe('Committed');
      expect(await updatesOf(pet.id)).toEqual([{ name: 'Committed' }]);
    });
  });

  describe('DELETE /v1/pets/{petId} (deletePet)', () => {
    it('removes the pet: 204, then 404 to GET, PATCH and DELETE, and no list shows it', async () => {
      const pet = await createPet(app.http, lister, { name: 'Leaving' });
      const response = await app.http.delete(`/v1/pets/${pet.id}`).set(lister.auth).expect(204);
      expect(response.text).toBe('');
      await app.http.get(`/v1/pets/${pet.id}`).set(lister.auth).expect(404);
      await patch(pet.id, { name: 'Back' }).expect(404);
      await app.http.delete(`/v1/pets/${pet.id}`).set(lister.auth).expect(404);
      const listed = await app.http.get(`/v1/pets?listedBy=me&limit=100`).set(lister.auth).expect(200);
      expect(listed.body.map((listedPet: { id: number }) => listedPet.id)).not.toContain(pet.id);
    });
  });

  // Last, once every exchange above has been made.
  it('exchanged only requests and answers that the committed document describes', () => {
    expect(traffic.violations).toEqual([]);
  });
});
