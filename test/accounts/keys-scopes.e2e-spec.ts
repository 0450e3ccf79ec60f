import { gzipSync } from 'node:zlib';
import { AccountsService } from '@app/accounts';
import { createApiApp } from '../support/api-app';
import { createPet, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { createMessagesApp } from '../support/messages';
import { waitFor } from '../support/processes';
import { randomIp, rateLimited, rateLimitHeadersOf, windowWithRoom } from '../support/rate-limiting';

const SHELTER = 'https://shelter.example';
const PUBLISHABLE_FORMAT = /^pet_pk_test_[A-Za-z0-9]{32,}$/;
const HOUR_MS = 60 * 60 * 1000;

/** A key of `account` made with `body` through the API, as a client makes one. */
async function keyWith(app: TestHttpApp, account: TestAccount, body: object): Promise<TestAccount> {
  const response = await app.http.post('/v1/keys').set(account.auth).send(body).expect(201);
  const { id, key } = response.body as { id: number; key: string };
  return { ...account, keyId: id, key, auth: { Authorization: `Bearer ${key}` } };
}

function insufficientScope(scope: string) {
  return {
    status: 403,
    body: { code: 'insufficient_scope', message: expect.stringContaining(scope), status: 403 },
    challenge: `Bearer error="insufficient_scope", scope="${scope}"`,
  };
}

describe('keys with scopes, and publishable keys for websites', () => {
  let api: TestHttpApp;
  let messages: TestHttpApp;
  let owner: TestAccount;

  beforeAll(async () => {
    [api, messages] = await Promise.all([
      createApiApp({ env: { TRUST_PROXY: 'true', RATE_LIMIT_PUBLISHABLE_PER_MINUTE: '5' } }),
      createMessagesApp(),
    ]);
    owner = await signUp(api.http);
    // The suite sends more than a free plan's minute holds with the owner's keys, which share its limits.
    await api.app.get(AccountsService).setPlan(owner.email, 'enterprise');
  });
  afterAll(async () => {
    await api.close();
    await messages.close();
  });

  describe('scopes', () => {
    it('gives the sign-up key and a key made without scopes every scope, and shows kind, scopes and expiresAt', async () => {
      const made = await api.http.post('/v1/keys').set(owner.auth).send({ name: 'all' }).expect(201);
      expect(made.body).toMatchObject({ kind: 'secret', scopes: ['*'], expiresAt: null });
      expect(made.body.allowedOrigins).toBeUndefined();
      const listed = await api.http.get('/v1/keys').set(owner.auth).expect(200);
      const signUpKey = listed.body.find((key: { id: number }) => key.id === owner.keyId);
      expect(signUpKey).toMatchObject({ kind: 'secret', scopes: ['*'], expiresAt: null });
      // Secret keys are never shown again.
      expect(signUpKey.key).toBeUndefined();
    });

    it('refuses an operation outside the key’s scopes with 403 insufficient_scope and RFC 6750’s challenge', async () => {
      const reader = await keyWith(api, owner, { scopes: ['pets:read'] });
      await api.http.get('/v1/pets').set(reader.auth).expect(200);
      await api.http.get('/v1/categories').set(reader.auth).expect(200);
      await api.http.get('/v1/store/inventory').set(reader.auth).expect(200);
      for (const [call, scope] of [
        [api.http.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }), 'pets:write'],
        [api.http.get('/v1/account'), 'account:read'],
        [api.http.get('/v1/keys'), 'keys:read'],
        [api.http.get('/v1/store/orders'), 'orders:read'],
        [api.http.get('/v1/events'), 'events:read'],
        [api.http.get('/v1/webhook-endpoints'), 'webhooks:read'],
        [messages.http.get('/messages'), 'messages:read'],
      ] as const) {
        const refused = await call.set(reader.auth);
        const expected = insufficientScope(scope);
        expect({ status: refused.status, body: refused.body }).toEqual({
          status: expected.status,
          body: expected.body,
        });
        expect(refused.headers['www-authenticate']).toBe(expected.challenge);
        expect(refused.headers['content-type']).toMatch(/^application\/json/);
      }
    });

    it('changes nothing when it refuses, and counts the refusal in the rate limits', async () => {
      const shelter = await signUp(api.http);
      const reader = await keyWith(api, shelter, { scopes: ['pets:read'] });
      const before = rateLimitHeadersOf((await api.http.get('/v1/pets').set(reader.auth).expect(200)).headers);
      await api.http.post('/v1/pets').set(reader.auth).send({ name: 'Rex', categoryId: 1 }).expect(403);
      const after = rateLimitHeadersOf((await api.http.get('/v1/pets').set(reader.auth).expect(200)).headers);
      expect(after.remaining).toBeLessThanOrEqual(before.remaining - 2);
      const listed = await api.http.get('/v1/pets?listedBy=me').set(shelter.auth).expect(200);
      expect(listed.body).toEqual([]);
    });

    it('lets X:write stand for X:read', async () => {
      const writer = await keyWith(api, owner, { scopes: ['pets:write', 'messages:write'] });
      const pet = await createPet(api.http, writer);
      await api.http.get('/v1/pets').set(writer.auth).expect(200);
      await api.http.get(`/v1/pets/${pet.id}`).set(writer.auth).expect(200);
      await messages.http.get('/messages').set(writer.auth).expect(200);
      await messages.http.post('/messages').set(writer.auth).send({ message: 'hello' }).expect(202);
      await api.http.get('/v1/store/orders').set(writer.auth).expect(403);
    });

    it('needs keys:write to make or revoke a key, and keys:read to list them', async () => {
      const keysReader = await keyWith(api, owner, { scopes: ['keys:read'] });
      await api.http.get('/v1/keys').set(keysReader.auth).expect(200);
      const made = await api.http
        .post('/v1/keys')
        .set(keysReader.auth)
        .send({ scopes: ['keys:read'] });
      expect(made.status).toBe(403);
      expect(made.headers['www-authenticate']).toBe(insufficientScope('keys:write').challenge);
      await api.http.delete(`/v1/keys/${owner.keyId}`).set(keysReader.auth).expect(403);
    });

    it('never lets a key make a key with more than it holds (* only from *)', async () => {
      const keyMaker = await keyWith(api, owner, { scopes: ['keys:write', 'pets:read'] });
      for (const scopes of [['pets:write'], ['*'], undefined, ['pets:read', 'orders:read']]) {
        const refused = await api.http.post('/v1/keys').set(keyMaker.auth).send({ scopes }).expect(403);
        expect(refused.body).toEqual({ code: 'insufficient_scope', message: expect.any(String), status: 403 });
        expect(refused.headers['www-authenticate']).toMatch(/^Bearer error="insufficient_scope", scope="/);
      }
      const narrower = await keyWith(api, owner, { scopes: ['keys:write'] });
      const made = await api.http
        .post('/v1/keys')
        .set(narrower.auth)
        .send({ scopes: ['keys:read'] })
        .expect(201);
      expect(made.body.scopes).toEqual(['keys:read']);
      // A key made by a restricted key cannot reach what its maker could not.
      await api.http
        .get('/v1/pets')
        .set({ Authorization: `Bearer ${made.body.key}` })
        .expect(403);
    });

    it('never lets an expiring key make a key that outlives it, publishable keys included', async () => {
      const expiresAt = new Date(Date.now() + HOUR_MS);
      const maker = await keyWith(api, owner, { scopes: ['keys:write', 'pets:read'], expiresAt });
      const keysBefore = (await api.http.get('/v1/keys').set(owner.auth).expect(200)).body.length;
      for (const body of [
        { scopes: ['keys:write'] },
        { scopes: ['pets:read'], expiresAt: new Date(expiresAt.getTime() + 1000) },
        { kind: 'publishable', allowedOrigins: [SHELTER] },
        { kind: 'publishable', allowedOrigins: [SHELTER], expiresAt: new Date(expiresAt.getTime() + HOUR_MS) },
      ]) {
        const refused = await api.http.post('/v1/keys').set(maker.auth).send(body).expect(400);
        expect(refused.body).toEqual({
          code: 'validation_failed',
          status: 400,
          message: expect.stringContaining(expiresAt.toISOString()),
          details: [expect.objectContaining({ field: 'expiresAt' })],
        });
      }
      expect((await api.http.get('/v1/keys').set(owner.auth).expect(200)).body).toHaveLength(keysBefore);
      // Expiring with its maker, or before, it is made.
      const withMaker = await api.http
        .post('/v1/keys')
        .set(maker.auth)
        .send({ scopes: ['pets:read'], expiresAt });
      expect(withMaker.status).toBe(201);
      expect(withMaker.body.expiresAt).toBe(expiresAt.toISOString());
      const earlier = new Date(expiresAt.getTime() - 60_000).toISOString();
      await api.http
        .post('/v1/keys')
        .set(maker.auth)
        .send({ kind: 'publishable', allowedOrigins: [SHELTER], expiresAt: earlier })
        .expect(201);
    });

    it('never lets a key revoke a key whose scopes it does not hold (* only with *)', async () => {
      const revoker = await keyWith(api, owner, { scopes: ['keys:write'] });
      const everything = await keyWith(api, owner, {});
      const writer = await keyWith(api, owner, { scopes: ['pets:write'] });
      const website = await keyWith(api, owner, { kind: 'publishable', allowedOrigins: [SHELTER] });
      for (const [target, scope] of [
        [everything, '*'],
        [writer, 'pets:write'],
        [website, 'pets:read'],
      ] as const) {
        const refused = await api.http.delete(`/v1/keys/${target.keyId}`).set(revoker.auth).expect(403);
        expect(refused.body).toEqual({
          code: 'insufficient_scope',
          status: 403,
          message: expect.stringContaining(`key ${target.keyId}`),
        });
        expect(refused.headers['www-authenticate']).toBe(insufficientScope(scope).challenge);
      }
      await api.http.get('/v1/pets').set(everything.auth).expect(200);
      await api.http.post('/v1/pets').set(writer.auth).send({ name: 'Kept', categoryId: 1 }).expect(201);
      const listed: Array<{ id: number; revokedAt: string | null }> = (
        await api.http.get('/v1/keys').set(owner.auth).expect(200)
      ).body;
      const targets = [everything.keyId, writer.keyId, website.keyId];
      expect(listed.filter((key) => targets.includes(key.id)).map((key) => key.revokedAt)).toEqual([null, null, null]);
      // What it holds it may revoke, itself included; a * key revokes anything.
      const keysReader = await keyWith(api, owner, { scopes: ['keys:read'] });
      await api.http.delete(`/v1/keys/${keysReader.keyId}`).set(revoker.auth).expect(204);
      await api.http.delete(`/v1/keys/${revoker.keyId}`).set(revoker.auth).expect(204);
      await api.http.delete(`/v1/keys/${everything.keyId}`).set(owner.auth).expect(204);
    });

    it.each([
      ['an unknown scope', { scopes: ['pets:admin'] }, 'scopes'],
      ['an empty list of scopes', { scopes: [] }, 'scopes'],
      ['a repeated scope', { scopes: ['pets:read', 'pets:read'] }, 'scopes'],
      ['an unknown kind', { kind: 'root' }, 'kind'],
      ['an expiry that is not a date-time', { expiresAt: 'tomorrow' }, 'expiresAt'],
      ['an expiry in the past', { expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
      ['an expiry more than 2 years ahead', { expiresAt: new Date(Date.now() + 3 * 365 * 86400_000) }, 'expiresAt'],
    ])('refuses %s with 400 validation_failed', async (_case, body, field) => {
      const refused = await api.http.post('/v1/keys').set(owner.auth).send(body).expect(400);
      expect(refused.body).toMatchObject({ code: 'validation_failed', message: expect.stringContaining(field) });
    });

    it('answers 401 unauthorized, as for a revoked key, once expiresAt has passed', async () => {
      const expiresAt = new Date(Date.now() + 3000).toISOString();
      const expiring = await keyWith(api, owner, { expiresAt });
      const listed = await api.http.get('/v1/keys').set(owner.auth).expect(200);
      expect(listed.body.find((key: { id: number }) => key.id === expiring.keyId).expiresAt).toBe(expiresAt);
      await api.http.get('/v1/pets').set(expiring.auth).expect(200);
      await waitFor(
        async () => (await api.http.get('/v1/pets').set(expiring.auth)).status === 401,
        15_000,
        'the key to expire',
      );
      const refused = await api.http.get('/v1/pets').set(expiring.auth).expect(401);
      expect(refused.body.code).toBe('unauthorized');
      expect(refused.headers['www-authenticate']).toBe('Bearer');
    });
  });

  describe('publishable keys', () => {
    let publishable: TestAccount;

    beforeAll(async () => {
      publishable = await keyWith(api, owner, {
        name: 'website',
        kind: 'publishable',
        allowedOrigins: [SHELTER, 'http://localhost:8080'],
      });
    });

    it('are pet_pk_…, hold pets:read, and are shown whole by GET /v1/keys', async () => {
      expect(publishable.key).toMatch(PUBLISHABLE_FORMAT);
      const listed = await api.http.get('/v1/keys').set(owner.auth).expect(200);
      expect(listed.body.find((key: { id: number }) => key.id === publishable.keyId)).toMatchObject({
        kind: 'publishable',
        scopes: ['pets:read'],
        allowedOrigins: [SHELTER, 'http://localhost:8080'],
        prefix: 'pet_pk_test_',
        key: publishable.key,
      });
    });

    it.each([
      ['without allowedOrigins', { kind: 'publishable' }, 'allowedOrigins'],
      ['with scopes', { kind: 'publishable', scopes: ['pets:read'], allowedOrigins: [SHELTER] }, 'scopes'],
      ['with more than 10 origins', { kind: 'publishable', allowedOrigins: many(11) }, 'allowedOrigins'],
      [
        'with an origin that has a path',
        { kind: 'publishable', allowedOrigins: [`${SHELTER}/pets`] },
        'allowedOrigins',
      ],
      ['of a secret key with allowedOrigins', { allowedOrigins: [SHELTER] }, 'allowedOrigins'],
    ])('are refused %s with 400 validation_failed', async (_case, body, field) => {
      const refused = await api.http.post('/v1/keys').set(owner.auth).send(body).expect(400);
      expect(refused.body).toMatchObject({ code: 'validation_failed', message: expect.stringContaining(field) });
    });

    it('are made only by a key that holds pets:read as well', async () => {
      const keyMaker = await keyWith(api, owner, { scopes: ['keys:write'] });
      const body = { kind: 'publishable', allowedOrigins: [SHELTER] };
      const refused = await api.http.post('/v1/keys').set(keyMaker.auth).send(body).expect(403);
      expect(refused.body.code).toBe('insufficient_scope');
      expect(refused.headers['www-authenticate']).toBe(insufficientScope('pets:read').challenge);
      const reader = await keyWith(api, owner, { scopes: ['keys:write', 'pets:read'] });
      await api.http.post('/v1/keys').set(reader.auth).send(body).expect(201);
    });

    it('read the public operations, and nothing else', async () => {
      const pet = await createPet(api.http, owner);
      // Each from a visitor of its own: a publishable key's limit is per client address.
      for (const path of ['/v1/pets', `/v1/pets/${pet.id}`, '/v1/categories']) {
        await api.http.get(path).set(publishable.auth).set('X-Forwarded-For', randomIp()).expect(200);
      }
      for (const call of [
        api.http.get('/v1/store/inventory'),
        api.http.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }),
        api.http.patch(`/v1/pets/${pet.id}`).send({ name: 'Max' }),
        api.http.get('/v1/account'),
        api.http.get('/v1/keys'),
        api.http.post('/v1/keys').send({}),
        api.http.get('/v1/events'),
        messages.http.get('/messages'),
        messages.http.post('/messages').send({ message: 'hi' }),
      ]) {
        const refused = await call.set(publishable.auth).set('X-Forwarded-For', randomIp()).expect(403);
        expect(refused.body.code).toBe('insufficient_scope');
        expect(refused.headers['www-authenticate']).toMatch(/^Bearer error="insufficient_scope", scope="/);
      }
    });

    it('are refused from an origin they do not allow, and served without Origin (a server)', async () => {
      const ip = randomIp();
      const refused = await api.http
        .get('/v1/pets')
        .set(publishable.auth)
        .set('Origin', 'https://elsewhere.example')
        .set('X-Forwarded-For', ip)
        .expect(403);
      expect(refused.body).toEqual({
        code: 'origin_not_allowed',
        message: expect.stringContaining('https://elsewhere.example'),
        status: 403,
      });
      // Readable by the page, so that it can say why it shows nothing.
      expect(refused.headers['access-control-allow-origin']).toBe('https://elsewhere.example');
      await api.http.get('/v1/pets').set(publishable.auth).set('X-Forwarded-For', ip).expect(200);
    });

    it('give an allowed origin CORS: its origin, Vary: Origin, and the rate-limit, Link and ETag headers exposed', async () => {
      await createPet(api.http, owner);
      await createPet(api.http, owner);
      const page = await api.http
        .get('/v1/pets?limit=1')
        .set(publishable.auth)
        .set('Origin', SHELTER)
        .set('X-Forwarded-For', randomIp())
        .expect(200);
      expect(page.headers['access-control-allow-origin']).toBe(SHELTER);
      expect(page.headers.vary).toMatch(/\bOrigin\b/);
      expect(page.headers.link).toMatch(/rel="next"/);
      const exposed = page.headers['access-control-expose-headers']!.split(',').map((name: string) => name.trim());
      expect(exposed).toEqual(
        expect.arrayContaining(['Link', 'ETag', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
      );
      const pet = await api.http
        .get(`/v1/pets/${page.body[0].id}`)
        .set(publishable.auth)
        .set('Origin', 'http://localhost:8080')
        .set('X-Forwarded-For', randomIp())
        .expect(200);
      expect(pet.headers['access-control-allow-origin']).toBe('http://localhost:8080');
      expect(pet.headers.etag).toBeDefined();
    });

    it('are preflighted without a key, for reads', async () => {
      const preflight = await api.http
        .options('/v1/pets')
        .set('Origin', SHELTER)
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'authorization')
        .expect(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(SHELTER);
      expect(preflight.headers['access-control-allow-headers']).toMatch(/Authorization/i);
      expect(preflight.headers['access-control-allow-methods']).toMatch(/GET/);
      const write = await api.http
        .options('/v1/pets')
        .set('Origin', SHELTER)
        .set('Access-Control-Request-Method', 'POST');
      expect(write.headers['access-control-allow-origin']).toBeUndefined();
      // A secret key's answers are not readable by another site's page.
      const secret = await api.http.get('/v1/pets').set(owner.auth).set('Origin', SHELTER).expect(200);
      expect(secret.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('are limited per client address and key, never against the account’s plan', async () => {
      await windowWithRoom(60, 10_000);
      const [visitor, other] = [randomIp(), randomIp()];
      const accountBefore = rateLimitHeadersOf((await api.http.get('/v1/account').set(owner.auth).expect(200)).headers);
      for (let i = 1; i <= 5; i++) {
        const response = await api.http
          .get('/v1/categories')
          .set(publishable.auth)
          .set('X-Forwarded-For', visitor)
          .expect(200);
        expect(rateLimitHeadersOf(response.headers)).toMatchObject({ limit: 5, remaining: 5 - i });
      }
      const refused = await api.http
        .get('/v1/categories')
        .set(publishable.auth)
        .set('Origin', SHELTER)
        .set('X-Forwarded-For', visitor)
        .expect(429);
      expect(refused.body).toEqual(rateLimited);
      expect(refused.headers['access-control-allow-origin']).toBe(SHELTER);
      // Another visitor of the same site is not held back, and the account did not pay for either.
      await api.http.get('/v1/categories').set(publishable.auth).set('X-Forwarded-For', other).expect(200);
      const accountAfter = rateLimitHeadersOf((await api.http.get('/v1/account').set(owner.auth).expect(200)).headers);
      expect(accountAfter.limit).toBe(accountBefore.limit);
      expect(accountAfter.remaining).toBe(accountBefore.remaining - 1);
    });
  });

  describe('GET /widget.js', () => {
    it('serves the widget without a key, as JavaScript any page may load, cached and revalidated', async () => {
      const response = await api.http.get('/widget.js').expect(200);
      expect(response.headers['content-type']).toMatch(/^text\/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=86400, must-revalidate');
      expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(response.headers['set-cookie']).toBeUndefined();
      const script = response.text;
      expect(script).toContain('data-pet-adoption');
      const unchanged = await api.http.get('/widget.js').set('If-None-Match', response.headers.etag!).expect(304);
      expect(unchanged.text).toBe('');
    });

    it('is at most 15 KiB gzipped, and names no host but the one that served it', async () => {
      const { text } = await api.http.get('/widget.js').expect(200);
      expect(gzipSync(text, { level: 9 }).length).toBeLessThanOrEqual(15 * 1024);
      expect(text).not.toMatch(/https?:\/\/(?!api\.example)/);
      expect(text).not.toMatch(/document\.cookie|localStorage|sessionStorage/);
    });
  });
});

function many(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `https://site${index}.example`);
}
