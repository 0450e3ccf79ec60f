import { AccountsService } from '@app/accounts';
import { sql } from '@app/database';
import { HOLD_PET_CHANGES, PET_CHANGE } from '@app/pets';
import { createApiApp } from '../support/api-app';
import { waitsForPetChangeClock, withDatabase } from '../support/database';
import { createPet, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { walkPages } from '../support/pets';
import { waitFor } from '../support/processes';

const PROFILE = {
  name: 'Tierheim Berlin',
  description: 'We rehome animals of every kind.',
  email: 'adopt@tierheim.example',
  phone: '+49 (30) 768-880',
  website: 'https://tierheim.example',
  adoptionPolicy: 'A home visit precedes every adoption.',
  adoptionUrl: 'https://tierheim.example/adopt',
  address: { line1: 'Hausvaterweg 39', city: 'Berlin', postcode: '13057', country: 'DE' },
  location: { latitude: 52.57, longitude: 13.55 },
  hours: { monday: '10:00–16:00', sunday: 'closed' },
  socialMedia: { instagram: 'https://instagram.example/tierheim' },
};

/** Organisations, their profile, finding them, and what publishing one does to its pets. */
describe('organisations', () => {
  let app: TestHttpApp;
  let shelter: TestAccount;
  let adopter: TestAccount;

  const put = (account: TestAccount, body: object) => app.http.put('/v1/organization').set(account.auth).send(body);
  const business = async () => {
    const account = await signUp(app.http);
    await app.app.get(AccountsService).setPlan(account.email, 'business');
    return account;
  };
  const events = async (account: TestAccount) =>
    (await app.http.get('/v1/events?type=pet.updated&limit=100').set(account.auth).expect(200)).body as Array<{
      data: { object: { id: number; organizationId?: string } };
    }>;

  beforeAll(async () => {
    app = await createApiApp();
    shelter = await business();
    adopter = await business();
  });
  afterAll(() => app.close());

  it('publishes, reads, replaces, changes and unpublishes the caller’s organisation, with ETags', async () => {
    const account = await business();
    await app.http.get('/v1/organization').set(account.auth).expect(404);

    const created = await put(account, PROFILE).expect(201);
    expect(created.headers.location).toBe('/v1/organization');
    expect(created.headers.etag).toMatch(/^"\d+"$/);
    expect(created.body).toEqual({
      ...PROFILE,
      id: expect.stringMatching(/^org_[0-9a-f]{20}$/),
      animalCounts: { available: 0, pending: 0, sold: 0 },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const own = await app.http.get('/v1/organization').set(account.auth).expect(200);
    expect(own.body).toEqual(created.body);
    expect(own.headers.etag).toBe(created.headers.etag);
    expect((await app.http.get(`/v1/organizations/${created.body.id}`).set(adopter.auth).expect(200)).body).toEqual(
      created.body,
    );

    // A replacement clears the fields it leaves out.
    const replaced = await put(account, { name: ' Tierheim ' }).expect(200);
    expect(replaced.body).toEqual({
      id: created.body.id,
      name: 'Tierheim',
      animalCounts: { available: 0, pending: 0, sold: 0 },
      createdAt: created.body.createdAt,
      updatedAt: expect.any(String),
    });
    expect(replaced.headers.etag).not.toBe(created.headers.etag);

    const changed = await app.http
      .patch('/v1/organization')
      .set(account.auth)
      .set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify({ phone: '030 123', address: PROFILE.address }))
      .expect(200);
    expect(changed.body).toMatchObject({ name: 'Tierheim', phone: '030 123', address: PROFILE.address });
    const cleared = await app.http.patch('/v1/organization').set(account.auth).send({ phone: null }).expect(200);
    expect(cleared.body.phone).toBeUndefined();

    // If-Match: a stale ETag changes nothing.
    const stale = await app.http
      .patch('/v1/organization')
      .set(account.auth)
      .set('If-Match', created.headers.etag!)
      .send({ name: 'Stale' })
      .expect(412);
    expect(stale.body).toEqual({ code: 'precondition_failed', message: expect.any(String), status: 412 });
    await put(account, PROFILE).set('If-Match', created.headers.etag!).expect(412);
    await app.http.delete('/v1/organization').set(account.auth).set('If-Match', '"1"').expect(412);
    const current = await app.http.get('/v1/organization').set(account.auth).expect(200);
    expect(current.body.name).toBe('Tierheim');
    await put(account, PROFILE).set('If-Match', current.headers.etag!).expect(200);

    await app.http.delete('/v1/organization').set(account.auth).expect(204);
    await app.http.get('/v1/organization').set(account.auth).expect(404);
    await app.http.get(`/v1/organizations/${created.body.id}`).set(account.auth).expect(404);
    await app.http.delete('/v1/organization').set(account.auth).expect(404);
    await app.http.patch('/v1/organization').set(account.auth).send({ name: 'X' }).expect(404);
    // No organisation to match: If-Match refuses to publish one.
    await put(account, PROFILE).set('If-Match', current.headers.etag!).expect(412);
  });

  it('publishes none with If-Match: * (412 precondition_failed), and replaces a published one with it', async () => {
    const account = await business();
    const refused = await put(account, PROFILE).set('If-Match', '*').expect(412);
    expect(refused.body).toEqual({ code: 'precondition_failed', status: 412, message: expect.any(String) });
    await app.http.get('/v1/organization').set(account.auth).expect(404);
    await put(account, { name: 'Tierheim' }).expect(201);
    const replaced = await put(account, PROFILE).set('If-Match', '*').expect(200);
    expect(replaced.body.name).toBe(PROFILE.name);
  });

  it.each<[string, object]>([
    ['a name too long', { name: 'x'.repeat(101) }],
    ['an empty name', { name: '  ' }],
    ['no name', { description: 'A shelter' }],
    ['a description over 4000 characters', { name: 'S', description: 'x'.repeat(4001) }],
    ['an invalid email', { name: 'S', email: 'not-an-email' }],
    ['a phone with letters', { name: 'S', phone: '030 CALL-US' }],
    ['a phone over 30 characters', { name: 'S', phone: '1'.repeat(31) }],
    ['an http website', { name: 'S', website: 'http://tierheim.example' }],
    ['a relative adoptionUrl', { name: 'S', adoptionUrl: '/adopt' }],
    ['a lower-case country', { name: 'S', address: { line1: 'a', city: 'b', country: 'de' } }],
    ['an unknown country', { name: 'S', address: { line1: 'a', city: 'b', country: 'XX' } }],
    ['an address without a city', { name: 'S', address: { line1: 'a', country: 'DE' } }],
    ['an unknown day', { name: 'S', hours: { someday: '10:00' } }],
    ['hours over 100 characters', { name: 'S', hours: { monday: 'x'.repeat(101) } }],
    ['an unknown network', { name: 'S', socialMedia: { myspace: 'https://myspace.example' } }],
    ['an http social page', { name: 'S', socialMedia: { x: 'http://x.example/s' } }],
    ['a latitude out of range', { name: 'S', location: { latitude: 91, longitude: 0 } }],
    ['an unknown field', { name: 'S', animalCounts: { available: 1 } }],
  ])('refuses %s with 400 validation_failed', async (_case, body) => {
    const response = await put(shelter, body).expect(400);
    expect(response.body).toMatchObject({ code: 'validation_failed', message: expect.any(String), status: 400 });
  });

  it('refuses an empty change and a null name', async () => {
    const account = await business();
    await put(account, { name: 'S' }).expect(201);
    await app.http.patch('/v1/organization').set(account.auth).send({}).expect(400);
    await app.http.patch('/v1/organization').set(account.auth).send({ name: null }).expect(400);
  });

  it('merges address, hours and socialMedia member by member, null removing a member, as JSON or a merge patch', async () => {
    const account = await business();
    await put(account, PROFILE).expect(201);

    const merged = await app.http
      .patch('/v1/organization')
      .set(account.auth)
      .set('Content-Type', 'application/merge-patch+json')
      .send(
        JSON.stringify({
          address: { line2: 'Gate B', postcode: null },
          hours: { sunday: null, saturday: '11:00–15:00' },
          socialMedia: { x: 'https://x.example/tierheim' },
        }),
      )
      .expect(200);
    const expected = {
      address: { line1: 'Hausvaterweg 39', line2: 'Gate B', city: 'Berlin', country: 'DE' },
      hours: { monday: '10:00–16:00', saturday: '11:00–15:00' },
      socialMedia: { instagram: 'https://instagram.example/tierheim', x: 'https://x.example/tierheim' },
    };
    expect(merged.body).toEqual({
      ...PROFILE,
      ...expected,
      id: expect.any(String),
      animalCounts: expect.any(Object),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await app.http.get('/v1/organization').set(account.auth).expect(200)).body).toEqual(merged.body);

    const asJson = await app.http
      .patch('/v1/organization')
      .set(account.auth)
      .send({ address: { city: ' Potsdam ' }, socialMedia: { instagram: null } })
      .expect(200);
    expect(asJson.body.address).toEqual({ ...expected.address, city: 'Potsdam' });
    expect(asJson.body.socialMedia).toEqual({ x: 'https://x.example/tierheim' });
    expect(asJson.body.hours).toEqual(expected.hours);

    const removed = await app.http.patch('/v1/organization').set(account.auth).send({ hours: null }).expect(200);
    expect(removed.body.hours).toBeUndefined();
    expect(removed.body.address).toEqual(asJson.body.address);
  });

  it.each<[string, object, string]>([
    ['a required address member removed', { address: { city: null } }, 'address.city'],
    ['a country made invalid', { address: { country: 'de' } }, 'address.country'],
    ['an unknown day merged in', { hours: { someday: '10:00' } }, 'hours.someday'],
    ['an http social page merged in', { socialMedia: { x: 'http://x.example/s' } }, 'socialMedia.x'],
    ['an address that is not an object', { address: 'Hausvaterweg 39' }, 'address'],
  ])('validates the merged profile whole: refuses %s with 400, changing nothing', async (_case, patch, field) => {
    const account = await business();
    const before = await put(account, PROFILE).expect(201);

    const response = await app.http.patch('/v1/organization').set(account.auth).send(patch).expect(400);
    expect(response.body).toEqual({
      code: 'validation_failed',
      message: expect.any(String),
      status: 400,
      details: [{ field, message: expect.any(String) }],
    });
    expect((await app.http.get('/v1/organization').set(account.auth).expect(200)).body).toEqual(before.body);
  });

  it('refuses half an address merged into a profile that has none', async () => {
    const account = await business();
    await put(account, { name: 'S' }).expect(201);
    const response = await app.http
      .patch('/v1/organization')
      .set(account.auth)
      .send({ address: { city: 'Berlin' } })
      .expect(400);
    expect(response.body).toMatchObject({
      code: 'validation_failed',
      status: 400,
      details: [{ field: 'address.line1' }, { field: 'address.country' }],
    });
  });

  it('gives the account’s pets organizationId when published and takes it away when unpublished, each a pet.updated event; other changes touch no pet', async () => {
    const account = await business();
    const before = await createPet(app.http, account, { name: 'Early' });
    const published = await put(account, PROFILE).expect(201);
    const organizationId = published.body.id as string;

    const early = await app.http.get(`/v1/pets/${before.id}`).set(account.auth).expect(200);
    expect(early.body.organizationId).toBe(organizationId);
    expect(early.body.updatedAt > before.updatedAt).toBe(true);
    expect((await events(account)).map((event) => event.data.object)).toContainEqual(
      expect.objectContaining({ id: before.id, organizationId }),
    );
    // A pet added afterwards carries it from the start.
    const later = await createPet(app.http, account, { name: 'Later', status: 'sold' });
    expect(later.organizationId).toBe(organizationId);
    const counted = await app.http.get('/v1/organization').set(account.auth).expect(200);
    expect(counted.body.animalCounts).toEqual({ available: 1, pending: 0, sold: 1 });

    const updatedAt = (await app.http.get(`/v1/pets/${later.id}`).set(account.auth)).body.updatedAt;
    const eventsBefore = (await events(account)).length;
    await put(account, { ...PROFILE, name: 'Renamed' }).expect(200);
    await app.http.patch('/v1/organization').set(account.auth).send({ description: 'New mission' }).expect(200);
    expect((await app.http.get(`/v1/pets/${later.id}`).set(account.auth)).body.updatedAt).toBe(updatedAt);
    expect(await events(account)).toHaveLength(eventsBefore);

    const listed = await app.http.get(`/v1/pets?organizationId=${organizationId}`).set(adopter.auth).expect(200);
    expect(listed.body.map((pet: { id: number }) => pet.id)).toEqual([before.id, later.id]);

    await app.http.delete('/v1/organization').set(account.auth).expect(204);
    const after = await app.http.get(`/v1/pets/${before.id}`).set(account.auth).expect(200);
    expect(after.body.organizationId).toBeUndefined();
    expect((await events(account)).map((event) => event.data.object)).toContainEqual(
      expect.not.objectContaining({ organizationId: expect.anything() }),
    );
    expect((await events(account)).length).toBe(eventsBefore + 2);
    const gone = await app.http.get(`/v1/pets?organizationId=${organizationId}`).set(adopter.auth).expect(400);
    expect(gone.body).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('organizationId'),
      status: 400,
    });
  });

  it('gives a pet added while the organisation is published the organisation, whichever of the two waits for the other', async () => {
    // A publish (here written by hand) holds the pets' change clock while a pet's insert waits for it: the
    // insert, whose statement began before the publish committed, still names the organisation.
    const adding = await business();
    const organizationId = `org_raced${adding.accountId}`;
    await withDatabase(async (publish) => {
      await publish.query('BEGIN');
      const organization = sql`INSERT INTO organizations (id, account_id, name)
                               VALUES (${organizationId}, ${adding.accountId}, 'Raced')`;
      await publish.query(organization.text, [...organization.values]);
      await publish.query(HOLD_PET_CHANGES.text);
      const waited = createPet(app.http, adding, { name: 'Waited' });
      await waitFor(() => waitsForPetChangeClock(), 10000, 'the INSERT waiting for the clock');
      await publish.query('COMMIT');
      expect((await waited).organizationId).toBe(organizationId);
    });

    // An insert (here written by hand) holds the clock while a publish waits for it: the publish, which began
    // before the pet was committed, still gives it the organisation.
    const publishing = await business();
    await withDatabase(async (insert) => {
      await insert.query('BEGIN');
      const raced = sql`WITH ${PET_CHANGE}
        INSERT INTO pets (name, category_id, lister_account_id, created_at, updated_at)
        SELECT 'Raced', 1, ${publishing.accountId}, changed_at, changed_at FROM pet_change RETURNING id`;
      const petId = Number((await insert.query(raced.text, [...raced.values])).rows[0].id);
      // Sent at once (a supertest request starts when awaited).
      const published = Promise.resolve(put(publishing, PROFILE));
      await waitFor(() => waitsForPetChangeClock(), 10000, 'the publish waiting for the clock');
      await insert.query('COMMIT');
      const organization = (await published).body;
      expect((await published).status).toBe(201);
      const pet = await app.http.get(`/v1/pets/${petId}`).set(publishing.auth).expect(200);
      expect(pet.body.organizationId).toBe(organization.id);
    });
  });

  it('refuses a malformed organizationId filter with 400', async () => {
    for (const value of ['', 'org_', 'org_a-b', '42', 'org_' + 'a'.repeat(65)]) {
      const response = await app.http.get(`/v1/pets?organizationId=${value}`).set(adopter.auth).expect(400);
      expect(response.body.message).toContain('organizationId');
    }
  });

  describe('GET /v1/organizations (listOrganizations)', () => {
    const tag = `T${Date.now()}`;
    const places: Array<[string, number, number, string]> = [
      ['Potsdam', 52.39, 13.06, 'DE'],
      ['Spandau', 52.53, 13.2, 'DE'],
      ['Wien', 48.21, 16.37, 'AT'],
      ['Köpenick', 52.44, 13.58, 'DE'],
    ];
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      for (const [city, latitude, longitude, country] of places) {
        const account = await business();
        const response = await put(account, {
          name: `${tag} ${city} Rescue`,
          description: city === 'Wien' ? 'Katzen und Hunde' : 'Dogs and cats',
          address: { line1: 'Street 1', city, country },
          location: { latitude, longitude },
        }).expect(201);
        ids[city] = response.body.id;
      }
    });

    const list = async (query: string) =>
      (await app.http.get(`/v1/organizations?${query}`).set(adopter.auth).expect(200)).body as Array<{
        id: string;
        distanceKm?: number;
      }>;

    it('finds them by words of their name, city or description, accents and case ignored', async () => {
      expect((await list(`q=${tag}`)).map((o) => o.id)).toEqual(
        ['Köpenick', 'Potsdam', 'Spandau', 'Wien'].map((city) => ids[city]),
      );
      expect((await list(`q=${tag}+kopenick`)).map((o) => o.id)).toEqual([ids['Köpenick']]);
      expect((await list(`q=${tag}+KATZEN`)).map((o) => o.id)).toEqual([ids.Wien]);
    });

    it('filters by country and by distance, nearest first with distanceKm', async () => {
      expect((await list(`q=${tag}&country=AT`)).map((o) => o.id)).toEqual([ids.Wien]);
      const near = await list(`q=${tag}&near=52.52,13.405&radiusKm=30&sort=distance`);
      expect(near.map((o) => o.id)).toEqual([ids.Spandau, ids['Köpenick'], ids.Potsdam]);
      expect(near[0]!.distanceKm).toBeCloseTo(14, 0);
    });

    it('sorts newest first and pages with Link, keeping every filter', async () => {
      const newest = await list(`q=${tag}&sort=-createdAt`);
      expect(newest.map((o) => o.id)).toEqual(['Köpenick', 'Wien', 'Spandau', 'Potsdam'].map((city) => ids[city]));
      const walk = await walkPages(app, adopter, `/v1/organizations?q=${tag}&near=52.52,13.405&sort=distance&limit=1`);
      expect(walk.pages).toBe(3);
      const byName = await walkPages(app, adopter, `/v1/organizations?q=${tag}&country=DE&limit=2`);
      expect(byName.pets.map((o) => o.id)).toEqual(['Köpenick', 'Potsdam', 'Spandau'].map((city) => ids[city]));
    });

    it.each([
      ['sort=distance', 'needs near'],
      ['radiusKm=5', 'needs near'],
      ['country=de', 'country'],
      ['sort=name2', 'sort'],
      ['q=', 'q'],
      ['near=91,0', 'near'],
      ['cursor=abc', 'cursor'],
    ])('refuses %s with 400 naming the parameter', async (query, named) => {
      const response = await app.http.get(`/v1/organizations?${query}`).set(adopter.auth).expect(400);
      expect(response.body.message).toContain(named);
    });
  });
});
