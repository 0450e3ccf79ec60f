import { createApiApp } from '../support/api-app';
import { shutInsertGate, truncatePets, waitsForPetChangeClock } from '../support/database';
import { waitFor } from '../support/processes';
import { createPet, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { PetsSuite, startPetsSuite, walkPages } from '../support/pets';

describe('listing pets', () => {
  let suite: PetsSuite;
  let app: TestHttpApp;
  let account: TestAccount;

  beforeAll(async () => {
    suite = await startPetsSuite('pets_list');
    ({ app, account } = suite);
  });
  afterAll(() => suite.close());

  describe('GET /v1/pets (listPets)', () => {
    beforeAll(async () => {
      await truncatePets(suite.database.url);
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
      suite.sql.reset();
      const together = await Promise.all([...paths, ...paths].map(page));
      const reads = suite.sql.countOf('FROM pets');
      expect(reads).toBeGreaterThan(0);
      expect(reads).toBeLessThan(together.length);
      expect(together).toEqual([...alone, ...alone]);
    });

    it('reads a page asked for many times at once only once per statement, answering each request with it', async () => {
      const alone = await app.http.get('/v1/pets?limit=3').set(account.auth).expect(200);
      // Each statement's pages, as its parameter arrays (status, after id, rows) give them.
      const pagesRead: string[][] = [];
      const elements = (array: string | null) => array!.replace(/^\{|\}$/g, '').split(',');
      suite.sql.onBind = (text, parameters) => {
        if (!text.includes('FROM pets')) return;
        const [statuses, afterIds, rowCounts] = parameters.map(elements) as [string[], string[], string[]];
        pagesRead.push(statuses.map((status, i) => `${status}/${afterIds[i]}/${rowCounts[i]}`));
      };
      const together = await Promise.all(
        Array.from({ length: 20 }, () => app.http.get('/v1/pets?limit=3').set(account.auth).expect(200)),
      );
      suite.sql.onBind = undefined;
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
      const gate = await shutInsertGate('pets', 'name', 'Late commit', suite.database.url);
      let otherProcess: TestHttpApp | undefined;
      try {
        // A second api process, with its own batches and connections.
        otherProcess = await createApiApp({ env: { DATABASE_URL: suite.database.url } });
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
          async () => walked || (await waitsForPetChangeClock(suite.database.url)),
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
});
