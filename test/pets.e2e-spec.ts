import { AccountsService } from '@app/accounts';
import { Clock } from '@app/core';
import { PET_IDS_LOCK } from '@app/pets';
import { SqlCounter } from '../bench/support/sql-counter';
import { createApiApp } from './support/api-app';
import { shutInsertGate, suiteDatabase, SuiteDatabase, truncatePets } from './support/database';
import { createPet, signUp, TestAccount } from './support/factories';
import type { TestHttpApp } from './support/http-app';
import { waitFor } from './support/processes';

const SUNSET = Date.parse('2030-12-05T00:00:00Z');

/** Follows `Link: <…>; rel="next"` from the first page to the last. */
async function walkPages(app: TestHttpApp, account: TestAccount, firstPath: string) {
  const seen: number[] = [];
  let path: string | undefined = firstPath;
  let pages = 0;
  while (path) {
    const response: { body: Array<{ id: number }>; headers: Record<string, string> } = await app.http
      .get(path)
      .set(account.auth)
      .expect(200);
    seen.push(...response.body.map((pet) => pet.id));
    path = /<([^>]+)>; rel="next"/.exec(response.headers.link ?? '')?.[1];
    pages++;
  }
  return { seen, pages };
}

describe('pets and categories', () => {
  const now = { value: new Date('2026-06-01T00:00:00Z') };
  let app: TestHttpApp;
  let account: TestAccount;
  // The suite counts every pet in the catalogue: a database of its own holds only its pets.
  let database: SuiteDatabase;
  // The app's statements, counted on the wire between it and PostgreSQL.
  let sql: SqlCounter;

  beforeAll(async () => {
    database = await suiteDatabase('pets');
    const url = new URL(database.url);
    sql = new SqlCounter({ host: url.hostname, port: Number(url.port) });
    url.port = String(await sql.listen());
    app = await createApiApp({
      env: { DATABASE_URL: url.toString() },
      providers: [{ provide: Clock, useValue: { now: () => now.value } }],
    });
    account = await signUp(app.http);
    // This suite sends more than a Free account's 60 requests a minute.
    await app.app.get(AccountsService).setPlan(account.email, 'business');
  });
  afterAll(async () => {
    await app.close();
    await sql.close();
    await database.drop();
  });

  describe('POST /v1/pets (createPet)', () => {
    it('creates a pet with 201, its id, the default status and a Location header', async () => {
      const response = await app.http
        .post('/v1/pets')
        .set(account.auth)
        .send({ name: '  Rex  ', categoryId: 1 })
        .expect(201);
      expect(response.body).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 1, status: 'available' });
      expect(response.headers.location).toBe(`/v1/pets/${response.body.id}`);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    });

    it('keeps a status given on creation', async () => {
      const pet = await createPet(app.http, account, { status: 'sold' });
      expect(pet.status).toBe('sold');
    });

    it('creates each of many pets sent at once in shared statements, refusing only the one with an unknown category', async () => {
      const statuses = ['available', 'pending', 'sold'];
      const sent = Array.from({ length: 20 }, (_, i) => ({
        name: `Together ${i}`,
        categoryId: i === 7 ? 999 : (i % 7) + 1,
        status: statuses[i % 3],
      }));
      sql.reset();
      const answers = await Promise.all(sent.map((pet) => app.http.post('/v1/pets').set(account.auth).send(pet)));
      const inserts = sql.countOf('INSERT INTO pets');
      // Requests that arrive while a batch is written go together in the next one.
      expect(inserts).toBeGreaterThan(0);
      expect(inserts).toBeLessThan(sent.length);
      expect(answers[7]!.status).toBe(400);
      expect(answers[7]!.body).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(answers[7]!.body.message).toContain('categoryId');
      const created = answers.filter((_, i) => i !== 7);
      expect(new Set(created.map((answer) => answer.body.id)).size).toBe(created.length);
      for (const [i, pet] of sent.entries()) {
        if (i === 7) continue;
        expect(answers[i]!.status).toBe(201);
        expect(answers[i]!.body).toEqual({ id: expect.any(Number), ...pet });
        expect(answers[i]!.headers.location).toBe(`/v1/pets/${answers[i]!.body.id}`);
        const stored = await app.http.get(answers[i]!.headers.location).set(account.auth).expect(200);
        expect(stored.body).toEqual(answers[i]!.body);
      }
    });

    it.each([
      ['a missing name', { categoryId: 1 }, 'name'],
      ['an empty name', { name: '   ', categoryId: 1 }, 'name'],
      ['a name over 100 characters', { name: 'x'.repeat(101), categoryId: 1 }, 'name'],
      ['a non-string name', { name: 7, categoryId: 1 }, 'name'],
      ['a missing categoryId', { name: 'Rex' }, 'categoryId'],
      ['a fractional categoryId', { name: 'Rex', categoryId: 1.5 }, 'categoryId'],
      ['a string categoryId', { name: 'Rex', categoryId: '1' }, 'categoryId'],
      ['a categoryId of 0', { name: 'Rex', categoryId: 0 }, 'categoryId'],
      ['a categoryId above 2^53-1', { name: 'Rex', categoryId: 2 ** 60 }, 'categoryId'],
      ['an unknown categoryId', { name: 'Rex', categoryId: 999 }, 'categoryId'],
      ['a status outside the enumeration', { name: 'Rex', categoryId: 1, status: 'adopted' }, 'status'],
      ['an unknown field', { name: 'Rex', categoryId: 1, id: 5 }, 'id'],
    ])('rejects %s with 400 validation_failed naming the field', async (_case, body, field) => {
      const response = await app.http.post('/v1/pets').set(account.auth).send(body).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(response.body.message).toContain(field);
    });

    it('rejects a body that is not an object with validation_failed', async () => {
      const response = await app.http
        .post('/v1/pets')
        .set(account.auth)
        .send([{ name: 'Rex', categoryId: 1 }])
        .expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    });

    it('rejects malformed JSON with invalid_json', async () => {
      const response = await app.http
        .post('/v1/pets')
        .set(account.auth)
        .set('Content-Type', 'application/json')
        .send('{"name": "Rex",')
        .expect(400);
      expect(response.body).toEqual({ code: 'invalid_json', message: expect.any(String), status: 400 });
    });

    it('rejects a body that is not JSON with unsupported_content_type', async () => {
      const response = await app.http
        .post('/v1/pets')
        .set(account.auth)
        .set('Content-Type', 'text/plain')
        .send('name=Rex')
        .expect(400);
      expect(response.body).toMatchObject({ code: 'unsupported_content_type', status: 400 });
    });

    it('rejects a body over 64 KiB with 413 payload_too_large', async () => {
      const response = await app.http
        .post('/v1/pets')
        .set(account.auth)
        .send({ name: 'x'.repeat(70 * 1024), categoryId: 1 })
        .expect(413);
      expect(response.body).toMatchObject({ code: 'payload_too_large', status: 413 });
    });

    it('answers 401 unauthorized without a key', async () => {
      const response = await app.http.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(401);
      expect(response.body).toMatchObject({ code: 'unauthorized', status: 401 });
      expect(response.headers['www-authenticate']).toBe('Bearer');
    });
  });

  describe('GET /v1/pets (listPets)', () => {
    beforeAll(async () => {
      await truncatePets(database.url);
      for (let i = 0; i < 25; i++) {
        await createPet(app.http, account, { name: `Pet ${i}`, status: i % 5 === 0 ? 'pending' : 'available' });
      }
    });

    it('returns 20 pets by default, ordered by id, with a next link', async () => {
      const response = await app.http.get('/v1/pets').set(account.auth).expect(200);
      expect(response.body).toHaveLength(20);
      const ids = response.body.map((pet: { id: number }) => pet.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(response.headers.link).toMatch(/^<\/v1\/pets\?limit=20&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    });

    it('honours limit and omits the link on the last page', async () => {
      const response = await app.http.get('/v1/pets?limit=100').set(account.auth).expect(200);
      expect(response.body).toHaveLength(25);
      expect(response.headers.link).toBeUndefined();
    });

    it('filters by status and keeps the filter in the next link', async () => {
      const response = await app.http.get('/v1/pets?status=pending&limit=2').set(account.auth).expect(200);
      expect(response.body).toHaveLength(2);
      expect(response.body.every((pet: { status: string }) => pet.status === 'pending')).toBe(true);
      expect(response.headers.link).toContain('status=pending');
      const { seen } = await walkPages(app, account, '/v1/pets?status=pending&limit=2');
      expect(seen).toHaveLength(5);
    });

    it.each([
      ['limit=0'],
      ['limit=101'],
      ['limit=abc'],
      ['limit=2.5'],
      ['limit=0x10'],
      ['limit=1&limit=2'],
      ['status=adopted'],
      ['cursor=not-a-cursor'],
      ['unknown=1'],
    ])('rejects %s with 400 validation_failed', async (query) => {
      const response = await app.http.get(`/v1/pets?${query}`).set(account.auth).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    });

    it('visits every pet exactly once by following the links while pets are being added', async () => {
      const before = (await app.http.get('/v1/pets?limit=100').set(account.auth)).body.map(
        (pet: { id: number }) => pet.id,
      );
      const adding = Promise.all(
        Array.from({ length: 15 }, (_, i) => createPet(app.http, account, { name: `New ${i}` })),
      );
      const { seen, pages } = await walkPages(app, account, '/v1/pets?limit=3');
      await adding;
      expect(pages).toBeGreaterThan(5);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(expect.arrayContaining(before));
    });

    it('reads pages asked for at once in shared statements, each request answered with its own page', async () => {
      const first = await app.http.get('/v1/pets?limit=4').set(account.auth).expect(200);
      const paths = [
        '/v1/pets?limit=4',
        /<([^>]+)>; rel="next"/.exec(first.headers.link)![1]!,
        '/v1/pets?limit=100',
        '/v1/pets?status=pending&limit=2',
        '/v1/pets?status=available&limit=7',
        // None sold yet: an empty page amid the others.
        '/v1/pets?status=sold',
      ];
      const page = async (path: string) => {
        const response = await app.http.get(path).set(account.auth).expect(200);
        return { body: response.body as unknown, link: response.headers.link };
      };
      const alone: unknown[] = [];
      for (const path of paths) alone.push(await page(path));
      sql.reset();
      const together = await Promise.all([...paths, ...paths].map(page));
      const reads = sql.countOf('FROM pets');
      expect(reads).toBeGreaterThan(0);
      expect(reads).toBeLessThan(together.length);
      expect(together).toEqual([...alone, ...alone]);
    });

    it('reads a page asked for many times at once only once per statement, answering each request with it', async () => {
      const alone = await app.http.get('/v1/pets?limit=3').set(account.auth).expect(200);
      // Each statement's pages, as its parameter arrays (status, after id, rows) give them.
      const pagesRead: string[][] = [];
      const elements = (array: string | null) => array!.replace(/^\{|\}$/g, '').split(',');
      sql.onBind = (text, parameters) => {
        if (!text.includes('FROM pets')) return;
        const [statuses, afterIds, rowCounts] = parameters.map(elements) as [string[], string[], string[]];
        pagesRead.push(statuses.map((status, i) => `${status}/${afterIds[i]}/${rowCounts[i]}`));
      };
      const together = await Promise.all(
        Array.from({ length: 20 }, () => app.http.get('/v1/pets?limit=3').set(account.auth).expect(200)),
      );
      sql.onBind = undefined;
      expect(pagesRead.length).toBeGreaterThan(0);
      for (const pages of pagesRead) expect(new Set(pages).size).toBe(pages.length);
      expect(pagesRead.flat().length).toBeLessThan(together.length);
      for (const response of together) {
        expect(response.body).toEqual(alone.body);
        expect(response.headers.link).toBe(alone.headers.link);
      }
    });

    it('lists a pet as soon as its creation was answered, while other pages are being read', async () => {
      for (let i = 0; i < 5; i++) {
        const reading = Promise.all(Array.from({ length: 10 }, () => app.http.get('/v1/pets').set(account.auth)));
        const pet = await createPet(app.http, account, { name: `Just added ${i}`, status: 'sold' });
        const sold = await app.http.get('/v1/pets?status=sold&limit=100').set(account.auth).expect(200);
        expect(sold.body).toContainEqual(pet);
        await reading;
      }
    });

    it('lets no client page past a pet created on another process before that pet is visible', async () => {
      const gate = await shutInsertGate('pets', 'name', 'Late commit', database.url);
      let otherProcess: TestHttpApp | undefined;
      try {
        // A second api process, with its own batches and connections.
        otherProcess = await createApiApp({ env: { DATABASE_URL: database.url } });
        const late = createPet(app.http, account, { name: 'Late commit' });
        await waitFor(() => gate.isHolding(), 10000, "the late pet's INSERT at the gate");

        // A client pages through the catalogue as soon as the other process has answered a later creation.
        let walked = false;
        const walk = createPet(otherProcess.http, account, { name: 'Early commit' }).then(async (early) => {
          const { seen } = await walkPages(app, account, '/v1/pets?limit=100');
          walked = true;
          return { early, seen };
        });
        // Open the gate once the walk is over, or once the later creation is seen waiting for the late one.
        await waitFor(
          async () => walked || (await gate.waitsForLock(PET_IDS_LOCK)),
          10000,
          'the walk or a waiting INSERT',
        );
        await gate.open();

        const [latePet, { early, seen }] = await Promise.all([late, walk]);
        expect(latePet.id).toBeLessThan(early.id);
        expect(seen).toContain(early.id);
        expect(seen).toContain(latePet.id);
      } finally {
        // The gate first: the other process may be waiting for the gated INSERT.
        try {
          await gate.remove();
        } finally {
          await otherProcess?.close();
        }
      }
    });

    it('answers 401 with an unknown key', async () => {
      const response = await app.http
        .get('/v1/pets')
        .set('Authorization', 'Bearer pet_test_0000000000000000000000000000000000000000')
        .expect(401);
      expect(response.body).toMatchObject({ code: 'unauthorized', status: 401 });
    });
  });

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
