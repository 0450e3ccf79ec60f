import fc from 'fast-check';
import { createPet, TestAccount } from '../support/factories';
import {
  closeHostileApp,
  expectWellFormed,
  fuzz,
  hostileJson,
  PET_FIELDS,
  RUNS,
  startHostileApp,
} from '../support/hostile';
import type { TestHttpApp } from '../support/http-app';

/** The record's fields and the search's parameters, fuzzed: every answer is a success or an Error body. */
describe('hostile input to the record and the search (property-based)', () => {
  let app: TestHttpApp;
  let account: TestAccount;

  /** Values shaped like the record's, and not. */
  const fieldValue = fc.oneof(
    hostileJson,
    fc.constantFrom('male', 'female', 'unknown', 'baby', 'senior', 'small', 'xlarge', 'https://p.example.com/a.jpg'),
    fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.webUrl()), { maxLength: 12 }),
    fc.record({ latitude: fc.double(), longitude: fc.double() }, { requiredKeys: [] }),
    fc.record({ houseTrained: hostileJson, children: fc.boolean(), cats: fc.constant(null) }, { requiredKeys: [] }),
  );
  const recordLike = fc.dictionary(fc.constantFrom(...PET_FIELDS, 'id', 'updatedAt'), fieldValue, { maxKeys: 6 });

  beforeAll(async () => {
    ({ app, account } = await startHostileApp());
  });
  afterAll(() => closeHostileApp(app));

  it('POST /v1/pets answers record-shaped bodies with 201 or an Error body', async () => {
    await fc.assert(
      fc.asyncProperty(recordLike, async (fields) => {
        const response = await app.http
          .post('/v1/pets')
          .set(account.auth)
          .send({ name: 'Rex', categoryId: 1, ...fields });
        expectWellFormed(response, [201, 400]);
      }),
      fuzz(),
    );
  });

  it('PATCH /v1/pets/{petId} answers arbitrary JSON and merge patches with 200 or an Error body', async () => {
    const pet = await createPet(app.http, account);
    const contentType = fc.constantFrom('application/json', 'application/merge-patch+json');
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileJson, recordLike), contentType, async (body, type) => {
        const response = await app.http
          .patch(`/v1/pets/${pet.id}`)
          .set(account.auth)
          .set('Content-Type', type)
          .send(JSON.stringify(body) ?? 'null');
        expectWellFormed(response, [200, 400]);
      }),
      fuzz(),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers arbitrary If-Match and If-None-Match headers with a success, 304, 412 or an Error body', async () => {
    const pet = await createPet(app.http, account);
    const printable = fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      maxLength: 60,
    });
    const condition = fc.oneof(
      printable,
      printable.map((tag) => `"${tag}"`),
      fc.constantFrom('*', 'W/"1"', '"1", *'),
    );
    await fc.assert(
      fc.asyncProperty(condition, condition, async (ifMatch, ifNoneMatch) => {
        const fetched = await app.http.get(`/v1/pets/${pet.id}`).set(account.auth).set('If-None-Match', ifNoneMatch);
        expectWellFormed(fetched, [200, 304, 400]);
        const changed = await app.http
          .patch(`/v1/pets/${pet.id}`)
          .set(account.auth)
          .set('If-Match', ifMatch)
          .send({ name: 'Rex' });
        expectWellFormed(changed, [200, 400, 412]);
      }),
      fuzz(Math.ceil(RUNS / 3)),
    );
  });

  it('GET /v1/pets answers arbitrary search parameters with 200 or 400', async () => {
    const param = fc.oneof(
      fc.constantFrom(
        'status',
        'categoryId',
        'sex',
        'ageGroup',
        'size',
        'tag',
        'q',
        'listedBy',
        'updatedSince',
        'near',
        'radiusKm',
        'goodWith',
        'houseTrained',
        'spayedNeutered',
        'specialNeeds',
        'coat',
        'color',
        'organizationId',
        'externalId',
        'sort',
        'cursor',
        'limit',
        'q[]',
        'near[lat]',
      ),
      fc.string({ maxLength: 10 }),
    );
    const value = fc.oneof(
      fc.constantFrom(
        'available,sold',
        'available,,sold',
        '1',
        '0',
        '-1',
        '1e2',
        'me',
        'male',
        'baby',
        'xlarge',
        'calm',
        '52.5,13.4',
        '90,180',
        '-90.5,0',
        '1,2,3',
        '500',
        '501',
        '0.5',
        'distance',
        '-createdAt',
        'updatedAt',
        '2026-06-01T00:00:00Z',
        '2026-06-01T00:00:00.1234567Z',
        '%00',
        "' OR 1=1 --",
        'a & b | c:*',
        'children,cats',
        'children,,dogs',
        'true',
        'false',
        'wire',
        'Black',
        'org_0123456789abcdef0123',
        'A-2024-0117',
      ),
      fc.string({ unit: 'binary', maxLength: 40 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(param, value), { maxLength: 5 }), async (pairs) => {
        const query = pairs.map(([name, v]) => `${encodeURIComponent(name)}=${encodeURIComponent(v)}`).join('&');
        const response = await app.http.get(`/v1/pets?${query}`).set(account.auth);
        expectWellFormed(response, [200, 400]);
      }),
      fuzz(),
    );
  });
});
