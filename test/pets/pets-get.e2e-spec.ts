import { Clock } from '@app/core';
import { createPet, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { PetsSuite, startPetsSuite, walkPages } from '../support/pets';

const SUNSET = Date.parse('2030-12-05T00:00:00Z');

describe('fetching a pet and the categories', () => {
  let suite: PetsSuite;
  let app: TestHttpApp;
  let account: TestAccount;
  const now = { value: new Date('2026-06-01T00:00:00Z') };

  beforeAll(async () => {
    suite = await startPetsSuite('pets_get', [
      { provide: Clock, useValue: { now: () => now.value } satisfies Partial<Clock> },
    ]);
    ({ app, account } = suite);
  });
  afterAll(() => suite.close());

  describe('GET /v1/pets/{petId} (getPet, deprecated)', () => {
    const expectDeprecationHeaders = (headers: Record<string, string>) => {
      expect(headers.deprecation).toMatch(/^@\d+$/);
      expect(headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
      expect(headers.link).toBe('</v1/pets>; rel="successor-version"');
    };

    it('returns the pet with the deprecation headers', async () => {
      const pet = await createPet(app.http, account, { name: 'Fetch me', categoryId: 2 });
      const response = await app.http.get(`/v1/pets/${pet.id}`).set(account.auth).expect(200);
      expect(response.body).toEqual(pet);
      expectDeprecationHeaders(response.headers);
    });

    it('shows any account the pets another account added: one shared catalogue', async () => {
      const pet = await createPet(app.http, account, { name: 'Shared', categoryId: 3 });
      const stranger = await signUp(app.http);
      const fetched = await app.http.get(`/v1/pets/${pet.id}`).set(stranger.auth).expect(200);
      expect(fetched.body).toEqual(pet);
      const { seen } = await walkPages(app, stranger, '/v1/pets?limit=100');
      expect(seen).toContain(pet.id);
    });

    it('answers 404 not_found for an unknown id, still with the headers', async () => {
      const response = await app.http.get('/v1/pets/987654321').set(account.auth).expect(404);
      expect(response.body).toMatchObject({ code: 'not_found', status: 404 });
      expectDeprecationHeaders(response.headers);
    });

    it.each(['abc', '0', '-1', '1.5', '99999999999999999999'])('answers 400 for petId %s', async (petId) => {
      const response = await app.http.get(`/v1/pets/${petId}`).set(account.auth).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    });

    it('answers 401 without a key, with the headers', async () => {
      const response = await app.http.get('/v1/pets/1').expect(401);
      expectDeprecationHeaders(response.headers);
    });

    it('answers 410 gone from the sunset instant on', async () => {
      const pet = await createPet(app.http, account);
      now.value = new Date(SUNSET - 1);
      await app.http.get(`/v1/pets/${pet.id}`).set(account.auth).expect(200);
      now.value = new Date(SUNSET);
      const response = await app.http.get(`/v1/pets/${pet.id}`).set(account.auth).expect(410);
      expect(response.body).toMatchObject({ code: 'gone', status: 410 });
      expectDeprecationHeaders(response.headers);
      now.value = new Date('2026-06-01T00:00:00Z');
    });
  });

  describe('GET /v1/categories', () => {
    it('lists the seeded categories', async () => {
      const response = await app.http.get('/v1/categories').set(account.auth).expect(200);
      expect(response.body).toEqual([
        { id: 1, name: 'Dogs' },
        { id: 2, name: 'Cats' },
        { id: 3, name: 'Rabbits' },
        { id: 4, name: 'Birds' },
        { id: 5, name: 'Reptiles' },
        { id: 6, name: 'Small mammals' },
        { id: 7, name: 'Fish' },
      ]);
    });
  });
});
