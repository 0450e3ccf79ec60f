import fc from 'fast-check';
import { closeHostileApp, expectWellFormed, fuzz, hostileJson, RUNS, startHostileApp } from '../support/hostile';
import type { TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';

/** Sends a body's bytes as they are: superagent would otherwise send a Buffer as the JSON of its fields. */
const asIs = (bytes: Buffer) => bytes as never;

describe('hostile input (property-based)', () => {
  let app: TestHttpApp;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, account } = await startHostileApp());
  });
  afterAll(() => closeHostileApp(app));

  it('POST /v1/pets answers arbitrary JSON bodies with 201 or an Error body', async () => {
    await fc.assert(
      fc.asyncProperty(hostileJson, async (body) => {
        const response = await app.http
          .post('/v1/pets')
          .set(account.auth)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body) ?? 'null');
        expectWellFormed(response, [201, 400, 413]);
      }),
      fuzz(),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('POST /v1/pets answers objects with prototype-attacking keys without polluting anything', async () => {
    const payloads = [
      '{"__proto__":{"polluted":true},"name":"Rex","categoryId":1}',
      '{"constructor":{"prototype":{"polluted":true}},"name":"Rex","categoryId":1}',
      '{"name":"Rex","categoryId":1,"status":{"__proto__":{"polluted":true}}}',
    ];
    for (const payload of payloads) {
      const response = await app.http
        .post('/v1/pets')
        .set(account.auth)
        .set('Content-Type', 'application/json')
        .send(payload);
      expectWellFormed(response, [400]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers raw bytes, invalid UTF-8 and deep nesting with an Error body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        const response = await app.http
          .post('/v1/pets')
          .set(account.auth)
          .set('Content-Type', 'application/json')
          .send(Buffer.from(bytes))
          .serialize(asIs);
        expectWellFormed(response, [201, 400]);
      }),
      fuzz(Math.ceil(RUNS / 3)),
    );
    for (const depth of [100, 5000, 30000]) {
      const deep = `{"name":${'['.repeat(depth)}${']'.repeat(depth)},"categoryId":1}`;
      const response = await app.http
        .post('/v1/pets')
        .set(account.auth)
        .set('Content-Type', 'application/json')
        .send(deep);
      expectWellFormed(response, [400, 413]);
    }
  });

  it('GET /v1/pets answers arbitrary query strings with 200 or 400', async () => {
    const param = fc.oneof(
      fc.constantFrom('limit', 'status', 'cursor', 'limit[]', 'status[0]', 'limit[a]', '__proto__', 'constructor'),
      fc.string({ maxLength: 10 }),
    );
    const value = fc.oneof(
      fc.constantFrom('1', '100', '101', '0', '-1', '1e2', '0x10', '20.0', 'available', 'sold', '%00', '%E0%A4%A'),
      fc.string({ unit: 'binary', maxLength: 30 }),
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

  it('GET /v1/pets/{petId} answers arbitrary ids with 200, 400 or 404', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.bigInt().map(String)), async (id) => {
        const response = await app.http.get(`/v1/pets/${encodeURIComponent(id)}`).set(account.auth);
        expectWellFormed(response, [200, 400, 404]);
      }),
      fuzz(Math.ceil(RUNS / 2)),
    );
  });

  it('answers odd Authorization headers with 401', async () => {
    const printable = fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      maxLength: 120,
    });
    const header = fc.oneof(
      printable,
      printable.map((value) => `Bearer ${value}`),
      printable.map((value) => `bearer  pet_test_${value}`),
      fc.constantFrom('Bearer', 'Bearer ', `Bearer pet_live_${'A'.repeat(200)}`, `Bearer ${account.key} extra`),
    );
    await fc.assert(
      fc.asyncProperty(header, async (authorization) => {
        const response = await app.http.get('/v1/account').set('Authorization', authorization);
        expectWellFormed(response, [401]);
      }),
      fuzz(Math.ceil(RUNS / 2)),
    );
  });

  it('POST /v1/accounts answers arbitrary bodies with 201 or an Error body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(hostileJson, fc.record({ email: fc.oneof(fc.emailAddress(), fc.string()) })),
        async (body) => {
          const response = await app.http
            .post('/v1/accounts')
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(body) ?? 'null');
          expectWellFormed(response, [201, 400, 409]);
        },
      ),
      fuzz(Math.ceil(RUNS / 2)),
    );
  });

  it('stores SQL injection attempts verbatim', async () => {
    const names = ["Robert'); DROP TABLE pets;--", "' OR '1'='1", '"; SELECT pg_sleep(10); --', '$1::text'];
    for (const name of names) {
      const created = await app.http.post('/v1/pets').set(account.auth).send({ name, categoryId: 1 }).expect(201);
      const fetched = await app.http.get(`/v1/pets/${created.body.id}`).set(account.auth).expect(200);
      expect(fetched.body.name).toBe(name.trim());
    }
    const response = await app.http
      .get(`/v1/pets?status=${encodeURIComponent("available' OR 1=1 --")}`)
      .set(account.auth);
    expectWellFormed(response, [400]);
  });

  it.each([
    ['a NUL character, which PostgreSQL text cannot hold', '\u0000', 'NUL characters'],
    ['an unpaired surrogate, which PostgreSQL would store as U+FFFD', '\ud800', 'unpaired surrogates'],
  ])('refuses %s in every stored string', async (_case, character, refused) => {
    const pet = await app.http
      .post('/v1/pets')
      .set(account.auth)
      .send({ name: `Rex${character}`, categoryId: 1 });
    expectWellFormed(pet, [400]);
    expect(pet.body.message).toContain(`name must not contain ${refused}`);
    const key = await app.http
      .post('/v1/keys')
      .set(account.auth)
      .send({ name: `${character}ci` });
    expectWellFormed(key, [400]);
    expect(key.body.message).toContain(`name must not contain ${refused}`);
    const signUp = await app.http.post('/v1/accounts').send({ email: `alex@example${character}.com` });
    expectWellFormed(signUp, [400]);
    expect(signUp.body.message).toContain(`email must not contain ${refused}`);
  });

  it.each([
    ['a byte that begins no character', Buffer.from([0xff])],
    ['a sequence cut short', Buffer.from([0xe2, 0x82])],
    ['an overlong encoding', Buffer.from([0xc0, 0xa2])],
    ['a surrogate encoded as UTF-8', Buffer.from([0xed, 0xa0, 0x80])],
  ])('refuses %s in a JSON body with invalid_json, storing nothing', async (_case, bytes) => {
    const name = `Raw ${bytes.toString('hex')}`;
    const body = Buffer.concat([Buffer.from(`{"name":"${name}`), bytes, Buffer.from('","categoryId":1}')]);
    for (const contentType of ['application/json', 'application/json; charset=UTF-8']) {
      const response = await app.http
        .post('/v1/pets')
        .set(account.auth)
        .set('Content-Type', contentType)
        .send(body)
        .serialize(asIs);
      expectWellFormed(response, [400]);
      expect(response.body).toEqual({
        code: 'invalid_json',
        status: 400,
        message: 'The request body is not valid UTF-8.',
      });
    }
    const listed = await app.http.get(`/v1/pets?listedBy=me&q=${encodeURIComponent(name)}`).set(account.auth);
    expect(listed.body).toEqual([]);
  });

  it('refuses a JSON body in another encoding than UTF-8 with unsupported_content_type', async () => {
    const response = await app.http
      .post('/v1/pets')
      .set(account.auth)
      .set('Content-Type', 'application/json; charset=utf-16le')
      .send(Buffer.from('{"name":"Rex","categoryId":1}', 'utf16le'))
      .serialize(asIs);
    expectWellFormed(response, [400]);
    expect(response.body.code).toBe('unsupported_content_type');
  });

  it.each([
    ['/v1/pets?tag=calm&tag=small', 'tag'],
    ['/v1/pets?categoryId=1&categoryId=1', 'categoryId'],
    ['/v1/pets?status=available&status=pending', 'status'],
    ['/v1/pets?limit=5&cursor=x&limit=5', 'limit'],
    ['/v1/organizations?country=DE&country=FR', 'country'],
    ['/v1/events?type=pet.created&type=pet.updated', 'type'],
  ])('refuses %s with validation_failed saying the parameter is given once', async (path, parameter) => {
    const response = await app.http.get(path).set(account.auth);
    expectWellFormed(response, [400]);
    const message = `${parameter} must be given once, not repeated`;
    expect(response.body).toEqual({
      code: 'validation_failed',
      status: 400,
      message,
      details: [{ field: parameter, message }],
    });
  });

  it('counts characters as PostgreSQL does, so a name its column cannot hold is a 400, not a failed insert', async () => {
    // A variation selector is a character of its own to PostgreSQL, though a length check may skip it.
    const hundred = '❤\ufe0f'.repeat(50);
    const created = await app.http.post('/v1/pets').set(account.auth).send({ name: hundred, categoryId: 1 });
    expectWellFormed(created, [201]);
    expect(created.body.name).toBe(hundred);
    const tooLong = await app.http
      .post('/v1/pets')
      .set(account.auth)
      .send({ name: `${hundred}x`, categoryId: 1 });
    expectWellFormed(tooLong, [400]);
    expect(tooLong.body.message).toMatch(/name must be 1 to 100 characters/);
    const key = await app.http
      .post('/v1/keys')
      .set(account.auth)
      .send({ name: `${hundred}x` });
    expectWellFormed(key, [400]);
  });
});
