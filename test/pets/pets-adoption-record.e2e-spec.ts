import { AccountsService } from '@app/accounts';
import { createApiApp } from '../support/api-app';
import { withDatabase } from '../support/database';
import { createPet, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { walkPages } from '../support/pets';

const RECORD = {
  attributes: { spayedNeutered: true, houseTrained: false, shotsCurrent: true },
  specialNeedsNotes: 'Needs a quiet home.',
  environment: { children: true, cats: false },
  coat: 'wire',
  colors: [' Black ', 'White'],
  secondaryBreed: 'Poodle',
  mixedBreed: true,
};

/** The adoption-grade record, the sync by external id, and the new filters. */
describe('the adoption-grade record', () => {
  let app: TestHttpApp;
  let lister: TestAccount;
  let other: TestAccount;

  const business = async () => {
    const account = await signUp(app.http);
    await app.app.get(AccountsService).setPlan(account.email, 'business');
    return account;
  };
  const sync = (externalId: string, body: object, account = lister) =>
    app.http.put(`/v1/pets/external/${externalId}`).set(account.auth).send(body);

  beforeAll(async () => {
    app = await createApiApp();
    lister = await business();
    other = await business();
  });
  afterAll(() => app.close());

  describe('fields', () => {
    it('stores them on create, colours trimmed with their case, and leaves out what is unknown', async () => {
      const pet = await createPet(app.http, lister, { ...RECORD, externalId: 'A-1.b_c:d' });
      expect(pet).toMatchObject({ ...RECORD, colors: ['Black', 'White'], externalId: 'A-1.b_c:d' });
      expect(pet.attributes).toEqual(RECORD.attributes);
      const bare = await createPet(app.http, lister);
      for (const field of [...Object.keys(RECORD), 'externalId', 'organizationId']) expect(bare[field]).toBeUndefined();
    });

    it.each<[string, object]>([
      ['a non-boolean attribute', { attributes: { houseTrained: 'yes' } }],
      ['an unknown attribute', { attributes: { friendly: true } }],
      ['an unknown companion', { environment: { horses: true } }],
      ['environment not an object', { environment: ['children'] }],
      ['a coat outside the enumeration', { coat: 'fluffy' }],
      ['four colours', { colors: ['a', 'b', 'c', 'd'] }],
      ['colours equal but for case', { colors: ['Black', 'black'] }],
      ['an empty colour', { colors: [' '] }],
      ['a colour over 40 characters', { colors: ['x'.repeat(41)] }],
      ['no colours', { colors: [] }],
      ['specialNeedsNotes over 500 characters', { specialNeedsNotes: 'x'.repeat(501) }],
      ['an empty secondaryBreed', { secondaryBreed: '' }],
      ['mixedBreed as a string', { mixedBreed: 'true' }],
      ['an externalId with a space', { externalId: 'a b' }],
      ['an externalId over 64 characters', { externalId: 'a'.repeat(65) }],
      ['an externalId with a slash', { externalId: 'a/b' }],
    ])('refuses %s with 400 validation_failed', async (_case, body) => {
      const response = await app.http
        .post('/v1/pets')
        .set(lister.auth)
        .send({ name: 'Rex', categoryId: 1, ...body })
        .expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', message: expect.any(String), status: 400 });
    });

    it('merges attributes and environment member by member in a PATCH, replaces colours whole, and null clears', async () => {
      const pet = await createPet(app.http, lister, RECORD);
      const merged = await app.http
        .patch(`/v1/pets/${pet.id}`)
        .set(lister.auth)
        .set('Content-Type', 'application/merge-patch+json')
        .send(JSON.stringify({ attributes: { houseTrained: true, shotsCurrent: null }, colors: ['Grey'] }))
        .expect(200);
      expect(merged.body.attributes).toEqual({ spayedNeutered: true, houseTrained: true });
      expect(merged.body.environment).toEqual(RECORD.environment);
      expect(merged.body.colors).toEqual(['Grey']);
      const cleared = await app.http
        .patch(`/v1/pets/${pet.id}`)
        .set(lister.auth)
        .send({ environment: null, coat: null, colors: null, mixedBreed: null })
        .expect(200);
      for (const field of ['environment', 'coat', 'colors', 'mixedBreed']) expect(cleared.body[field]).toBeUndefined();
      expect(cleared.body.secondaryBreed).toBe('Poodle');
    });

    it('keeps externalId unique among one lister’s pets: 409 external_id_taken; another lister may reuse it', async () => {
      await createPet(app.http, lister, { externalId: 'dup-1' });
      const taken = await app.http
        .post('/v1/pets')
        .set(lister.auth)
        .send({ name: 'Twin', categoryId: 1, externalId: 'dup-1' })
        .expect(409);
      expect(taken.body).toEqual({ code: 'external_id_taken', message: expect.stringContaining('dup-1'), status: 409 });
      const second = await createPet(app.http, lister, { externalId: 'dup-2' });
      const patched = await app.http
        .patch(`/v1/pets/${second.id}`)
        .set(lister.auth)
        .send({ externalId: 'dup-1' })
        .expect(409);
      expect(patched.body.code).toBe('external_id_taken');
      await createPet(app.http, other, { externalId: 'dup-1' });
    });
  });

  describe('PUT /v1/pets/external/{externalId} (putPetByExternalId)', () => {
    it('creates the pet (201, Location), then replaces it whole (200), clearing what is absent and keeping the status', async () => {
      const created = await sync('shelter-1', { name: 'Rex', categoryId: 1, status: 'pending', ...RECORD }).expect(201);
      expect(created.headers.location).toBe(`/v1/pets/${created.body.id}`);
      expect(created.headers.etag).toMatch(/^"\d+"$/);
      expect(created.body).toMatchObject({ externalId: 'shelter-1', status: 'pending', coat: 'wire' });

      const replaced = await sync('shelter-1', {
        name: 'Rex II',
        categoryId: 2,
        attributes: { declawed: false },
      }).expect(200);
      expect(replaced.headers.location).toBeUndefined();
      expect(replaced.body).toEqual({
        id: created.body.id,
        name: 'Rex II',
        categoryId: 2,
        status: 'pending',
        sex: 'unknown',
        photos: [],
        attributes: { declawed: false },
        externalId: 'shelter-1',
        createdAt: created.body.createdAt,
        updatedAt: expect.any(String),
      });
      const found = await app.http.get('/v1/pets?listedBy=me&externalId=shelter-1').set(lister.auth).expect(200);
      expect(found.body).toEqual([replaced.body]);
      // Another lister's same external id is another pet.
      const theirs = await sync('shelter-1', { name: 'Other', categoryId: 1 }, other).expect(201);
      expect(theirs.body.id).not.toBe(created.body.id);
    });

    it('honours If-Match: a stale ETag → 412, no pet to match → 412 and none created', async () => {
      const created = await sync('etag-1', { name: 'Rex', categoryId: 1 }).expect(201);
      await sync('etag-1', { name: 'Max', categoryId: 1 }).set('If-Match', created.headers.etag!).expect(200);
      const stale = await sync('etag-1', { name: 'Old', categoryId: 1 })
        .set('If-Match', created.headers.etag!)
        .expect(412);
      expect(stale.body.code).toBe('precondition_failed');
      await sync('etag-2', { name: 'New', categoryId: 1 }).set('If-Match', created.headers.etag!).expect(412);
      expect((await app.http.get('/v1/pets?listedBy=me&externalId=etag-2').set(lister.auth)).body).toEqual([]);
    });

    it('creates none with If-Match: * (412 precondition_failed), and replaces an existing pet with it', async () => {
      const refused = await sync('star-1', { name: 'Rex', categoryId: 1 }).set('If-Match', '*').expect(412);
      expect(refused.body).toEqual({ code: 'precondition_failed', status: 412, message: expect.any(String) });
      expect((await app.http.get('/v1/pets?listedBy=me&externalId=star-1').set(lister.auth)).body).toEqual([]);
      await sync('star-1', { name: 'Rex', categoryId: 1 }).expect(201);
      const replaced = await sync('star-1', { name: 'Max', categoryId: 1 }).set('If-Match', '*').expect(200);
      expect(replaced.body.name).toBe('Max');
    });

    it('refuses another status while an order is open (409 pet_has_open_order), and keeps it when none is named', async () => {
      const created = await sync('held-1', { name: 'Rex', categoryId: 1 }).expect(201);
      await withDatabase((client) =>
        client.query('UPDATE pets SET open_order_id = 1 WHERE id = $1', [created.body.id]),
      );
      const refused = await sync('held-1', { name: 'Rex', categoryId: 1, status: 'sold' }).expect(409);
      expect(refused.body.code).toBe('pet_has_open_order');
      await sync('held-1', { name: 'Rex', categoryId: 1, status: 'available' }).expect(200);
      await sync('held-1', { name: 'Renamed', categoryId: 1 }).expect(200);
    });

    it.each<[string, string, object]>([
      ['an externalId with a space', 'a%20b', { name: 'Rex', categoryId: 1 }],
      ['an externalId over 64 characters', 'a'.repeat(65), { name: 'Rex', categoryId: 1 }],
      ['externalId in the body', 'ok-1', { name: 'Rex', categoryId: 1, externalId: 'ok-2' }],
      ['no name', 'ok-1', { categoryId: 1 }],
      ['an unknown category', 'ok-1', { name: 'Rex', categoryId: 999 }],
    ])('refuses %s with 400', async (_case, externalId, body) => {
      const response = await sync(externalId, body).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', message: expect.any(String), status: 400 });
    });
  });

  describe('null for a field that always has a value', () => {
    const WHOLE = { name: 'Rex', categoryId: 1, status: 'pending', location: { latitude: 52.5, longitude: 13.4 } };
    // Every field of the record that is never absent from a pet once set (a location has both coordinates).
    it.each<[string, object]>([
      ['name', { name: null }],
      ['categoryId', { categoryId: null }],
      ['status', { status: null }],
      ['location.latitude', { location: { latitude: null, longitude: 13.4 } }],
      ['location.longitude', { location: { latitude: 52.5, longitude: null } }],
    ])(
      'refuses %s null with 400 validation_failed on create, a PUT that creates or replaces, and PATCH',
      async (field, nulled) => {
        const account = await business();
        const existing = await sync('null-1', WHOLE, account).expect(201);
        const body = { ...WHOLE, ...nulled };
        for (const request of [
          app.http.post('/v1/pets').set(account.auth).send(body),
          sync('null-2', body, account),
          sync('null-1', body, account),
          app.http.patch(`/v1/pets/${existing.body.id}`).set(account.auth).send(nulled),
        ]) {
          const refused = await request;
          expect({ status: refused.status, body: refused.body }).toEqual({
            status: 400,
            body: {
              code: 'validation_failed',
              status: 400,
              message: expect.stringContaining(field),
              details: expect.arrayContaining([expect.objectContaining({ field })]),
            },
          });
        }
        // Nothing created, nothing changed.
        const pets = await app.http.get('/v1/pets?listedBy=me').set(account.auth).expect(200);
        expect(pets.body).toEqual([existing.body]);
      },
    );
  });

  describe('the filters of GET /v1/pets', () => {
    const ids: Record<string, number> = {};
    const query = async (filters: string) =>
      (
        (await app.http.get(`/v1/pets?listedBy=me&${filters}`).set(seeker.auth).expect(200)).body as Array<{
          id: number;
        }>
      )
        .map((pet) => pet.id)
        .filter((id) => Object.values(ids).includes(id));
    let seeker: TestAccount;

    beforeAll(async () => {
      seeker = await business();
      const pets: Record<string, object> = {
        all: { environment: { children: true, dogs: true, cats: true }, attributes: { houseTrained: true } },
        kids: { environment: { children: true, cats: false }, attributes: { houseTrained: false, specialNeeds: true } },
        unknown: { coat: 'curly', colors: ['Golden'] },
        black: { coat: 'short', colors: ['Brown', 'BLACK'], attributes: { spayedNeutered: false }, externalId: 'b-1' },
        blackish: { colors: ['Black and tan'], attributes: { spayedNeutered: true } },
      };
      for (const [name, record] of Object.entries(pets))
        ids[name] = (await createPet(app.http, seeker, { name, ...record })).id;
    });

    it.each<[string, string[]]>([
      ['goodWith=children', ['all', 'kids']],
      ['goodWith=children,cats', ['all']],
      ['goodWith=dogs,children', ['all']],
      ['houseTrained=true', ['all']],
      ['houseTrained=false', ['kids']],
      ['specialNeeds=true', ['kids']],
      ['specialNeeds=false', []],
      ['spayedNeutered=false', ['black']],
      ['coat=curly', ['unknown']],
      ['color=black', ['black']],
      ['color=BLACK%20AND%20TAN', ['blackish']],
      ['color=%20golden%20', ['unknown']],
      ['externalId=b-1', ['black']],
      ['goodWith=children&houseTrained=false&categoryId=1&status=available', ['kids']],
    ])('%s keeps %j', async (filters, names) => {
      expect(await query(filters)).toEqual(names.map((name) => ids[name]));
    });

    it('keeps every filter in Link', async () => {
      const walk = await walkPages(app, seeker, '/v1/pets?listedBy=me&goodWith=children&houseTrained=true&limit=1');
      expect(walk.seen).toEqual([ids.all]);
      const both = await walkPages(app, seeker, '/v1/pets?listedBy=me&goodWith=children&limit=1&sort=-createdAt');
      expect(both.seen).toEqual([ids.kids, ids.all]);
      expect(both.pages).toBe(2);
    });

    it.each([
      ['goodWith=horses', 'goodWith'],
      ['goodWith=', 'goodWith'],
      ['goodWith=children,,cats', 'goodWith'],
      ['houseTrained=yes', 'houseTrained'],
      ['spayedNeutered=1', 'spayedNeutered'],
      ['specialNeeds=', 'specialNeeds'],
      ['coat=fluffy', 'coat'],
      ['color=', 'color'],
      [`color=${'x'.repeat(41)}`, 'color'],
      ['externalId=b-1', 'externalId'],
      ['listedBy=me&externalId=a%20b', 'externalId'],
      ['organizationId=org_0123456789abcdef0123', 'organizationId'],
    ])('refuses %s with 400 naming %s', async (filters, named) => {
      const response = await app.http.get(`/v1/pets?${filters}`).set(seeker.auth).expect(400);
      expect(response.body).toMatchObject({
        code: 'validation_failed',
        message: expect.stringContaining(named),
        status: 400,
      });
    });
  });
});
