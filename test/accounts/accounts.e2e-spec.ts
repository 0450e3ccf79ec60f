import { createHash, randomUUID } from 'node:crypto';
import { AccountsService } from '@app/accounts';
import { createApiApp } from '../support/api-app';
import { withDatabase } from '../support/database';
import { signUp, TestAccount, uniqueEmail } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { AppProcess, startServing, waitFor } from '../support/processes';

const KEY_FORMAT = /^pet_test_[A-Za-z0-9]{32,}$/;

describe('accounts and API keys', () => {
  let app: TestHttpApp;

  beforeAll(async () => {
    app = await createApiApp({ env: { API_KEY_LAST_USED_FLUSH_MS: '200' } });
  });
  afterAll(() => app.close());

  describe('POST /v1/accounts (sign-up)', () => {
    it('creates a free account and returns its first key once', async () => {
      const email = uniqueEmail('signup');
      const response = await app.http.post('/v1/accounts').send({ email }).expect(201);
      expect(response.body).toEqual({
        account: {
          id: expect.any(Number),
          email,
          plan: 'free',
          limits: { perMinute: 60, perDay: 1000 },
          createdAt: expect.stringMatching(/Z$/),
        },
        apiKey: {
          id: expect.any(Number),
          name: 'default',
          prefix: response.body.apiKey.key.slice(0, 12),
          kind: 'secret',
          scopes: ['*'],
          expiresAt: null,
          createdAt: expect.any(String),
          lastUsedAt: null,
          revokedAt: null,
          key: expect.stringMatching(KEY_FORMAT),
        },
      });
    });

    it('stores only the SHA-256 hash of the key', async () => {
      const account = await signUp(app.http);
      const stored = await withDatabase((db) =>
        db.query('SELECT * FROM api_keys WHERE id = $1', [account.keyId]).then((result) => result.rows[0]),
      );
      expect(stored.key_hash).toEqual(createHash('sha256').update(account.key).digest());
      expect(JSON.stringify(stored)).not.toContain(account.key.slice(12));
    });

    it('answers 409 email_taken for a registered email in any letter case', async () => {
      const email = uniqueEmail('taken');
      await app.http.post('/v1/accounts').send({ email }).expect(201);
      const response = await app.http.post('/v1/accounts').send({ email: email.toUpperCase() }).expect(409);
      expect(response.body).toEqual({ code: 'email_taken', message: expect.any(String), status: 409 });
    });

    it.each([
      ['ß and SS', 'xß', 'xSS'],
      ['dotless ı and I', 'ıvy', 'IVY'],
      ['fullwidth and ASCII letters', 'ａlex', 'alex'],
      ['the ligature ﬁ and fi', 'ﬁn', 'FIN'],
    ])('answers 409 email_taken for emails that differ only by %s', async (_case, first, second) => {
      const id = randomUUID();
      await app.http
        .post('/v1/accounts')
        .send({ email: `${first}-${id}@example.com` })
        .expect(201);
      const response = await app.http
        .post('/v1/accounts')
        .send({ email: `${second}-${id}@example.com` })
        .expect(409);
      expect(response.body).toEqual({ code: 'email_taken', message: expect.any(String), status: 409 });
    });

    it('finds an account by any form of its email, and one without a canonical email by its exact address', async () => {
      const id = randomUUID();
      const first = await signUp(app.http, `xß-${id}@example.com`);
      // As the migration leaves an account that shared its canonical email with an older one.
      const [left] = await withDatabase(async (db) =>
        (await db.query(`INSERT INTO accounts (email) VALUES ($1) RETURNING id`, [`xss-${id}@example.com`])).rows.map(
          (row: { id: string }) => Number(row.id),
        ),
      );
      const accounts = app.app.get(AccountsService);
      expect((await accounts.getByEmail(`XSS-${id.toUpperCase()}@EXAMPLE.COM`)).id).toBe(first.accountId);
      expect((await accounts.getByEmail(`xss-${id}@example.com`)).id).toBe(left);
    });

    it.each([
      ['no email', {}],
      ['an invalid address', { email: 'not-an-email' }],
      ['a non-string email', { email: 42 }],
      ['an address over 254 characters', { email: `${'a'.repeat(250)}@example.com` }],
      // U+FDFA is one character that NFKC spells with eighteen.
      [
        'an address over 254 characters once normalised',
        { email: `a@${'\uFDFA'.repeat(60)}.${'\uFDFA'.repeat(20)}.com` },
      ],
      ['an unknown field', { email: uniqueEmail(), plan: 'enterprise' }],
    ])('rejects %s with 400 validation_failed', async (_case, body) => {
      const response = await app.http.post('/v1/accounts').send(body).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    });
  });

  describe('GET /v1/account', () => {
    it('returns the caller’s account', async () => {
      const account = await signUp(app.http);
      const response = await app.http.get('/v1/account').set(account.auth).expect(200);
      expect(response.body).toMatchObject({ id: account.accountId, email: account.email, plan: 'free' });
    });

    it('reflects a plan change made by the operator in the body and in the limits it enforces', async () => {
      const account = await signUp(app.http);
      // Cached with the Free plan's limits.
      expect((await app.http.get('/v1/account').set(account.auth)).headers['x-ratelimit-limit']).toBe('60');
      await app.app.get(AccountsService).setPlan(account.email, 'enterprise', { perMinute: 5000, perDay: 200000 });
      // Changed through this process: its cache of the key has forgotten the account.
      const response = await app.http.get('/v1/account').set(account.auth).expect(200);
      expect(response.body).toMatchObject({ plan: 'enterprise', limits: { perMinute: 5000, perDay: 200000 } });
      expect(response.headers['x-ratelimit-limit']).toBe('5000');
    });

    it.each([
      ['no Authorization header', undefined],
      ['another scheme', 'Basic dXNlcjpwYXNz'],
      ['a malformed key', 'Bearer not-a-key'],
      ['an unknown key', `Bearer pet_test_${'A'.repeat(40)}`],
    ])('answers 401 unauthorized with %s', async (_case, authorization) => {
      const call = app.http.get('/v1/account');
      if (authorization) call.set('Authorization', authorization);
      const response = await call.expect(401);
      expect(response.body).toEqual({ code: 'unauthorized', message: expect.any(String), status: 401 });
      expect(response.headers['www-authenticate']).toBe('Bearer');
    });
  });

  describe('/v1/keys', () => {
    let owner: TestAccount;
    let stranger: TestAccount;

    beforeAll(async () => {
      owner = await signUp(app.http);
      stranger = await signUp(app.http);
    });

    it('issues a named key that works at once', async () => {
      const response = await app.http.post('/v1/keys').set(owner.auth).send({ name: 'ci' }).expect(201);
      expect(response.body).toMatchObject({ name: 'ci', key: expect.stringMatching(KEY_FORMAT), revokedAt: null });
      await app.http.get('/v1/account').set('Authorization', `Bearer ${response.body.key}`).expect(200);
    });

    it('issues a key without a body', async () => {
      const response = await app.http.post('/v1/keys').set(owner.auth).expect(201);
      expect(response.body.key).toMatch(KEY_FORMAT);
    });

    it('rejects a name over 100 characters', async () => {
      const response = await app.http
        .post('/v1/keys')
        .set(owner.auth)
        .send({ name: 'n'.repeat(101) })
        .expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    });

    it('lists only the caller’s keys, never a secret', async () => {
      const response = await app.http.get('/v1/keys').set(owner.auth).expect(200);
      const ids = response.body.map((key: { id: number }) => key.id);
      expect(ids).toContain(owner.keyId);
      expect(ids).not.toContain(stranger.keyId);
      for (const key of response.body) expect(key).not.toHaveProperty('key');
      expect(JSON.stringify(response.body)).not.toContain(owner.key);
    });

    it('records when a key was last used, without a write per request', async () => {
      const fresh = await app.http.post('/v1/keys').set(owner.auth).send({ name: 'fresh' }).expect(201);
      const lastUsed = async () =>
        (await app.http.get('/v1/keys').set(owner.auth)).body.find((key: { id: number }) => key.id === fresh.body.id)
          .lastUsedAt;
      expect(await lastUsed()).toBeNull();
      await app.http.get('/v1/account').set('Authorization', `Bearer ${fresh.body.key}`).expect(200);
      await waitFor(async () => (await lastUsed()) !== null, 5000, 'lastUsedAt');
    });

    it('answers 404 when revoking another account’s key, which keeps working', async () => {
      const response = await app.http.delete(`/v1/keys/${stranger.keyId}`).set(owner.auth).expect(404);
      expect(response.body).toMatchObject({ code: 'not_found', status: 404 });
      await app.http.get('/v1/account').set(stranger.auth).expect(200);
    });

    it('answers 404 for an unknown key and 400 for a malformed id', async () => {
      await app.http.delete('/v1/keys/99999999').set(owner.auth).expect(404);
      const response = await app.http.delete('/v1/keys/abc').set(owner.auth).expect(400);
      expect(response.body.code).toBe('validation_failed');
    });

    it('revokes a key: 204, then 401 for it, while the account’s other keys keep working', async () => {
      const spare = await app.http.post('/v1/keys').set(owner.auth).send({ name: 'spare' }).expect(201);
      const spareAuth = { Authorization: `Bearer ${spare.body.key}` };
      await app.http.get('/v1/account').set(spareAuth).expect(200);
      await app.http.delete(`/v1/keys/${spare.body.id}`).set(owner.auth).expect(204);
      await app.http.get('/v1/account').set(spareAuth).expect(401);
      await app.http.get('/v1/account').set(owner.auth).expect(200);
      const listed = await app.http.get('/v1/keys').set(owner.auth).expect(200);
      expect(listed.body.find((key: { id: number }) => key.id === spare.body.id).revokedAt).toEqual(expect.any(String));
    });
  });

  describe('revocation across processes', () => {
    let other: AppProcess;
    let otherUrl: string;

    beforeAll(async () => {
      const started = await startServing('api');
      other = started;
      otherUrl = started.baseUrl;
    });
    afterAll(() => other.stop());

    it('stops a key on every api process within one second', async () => {
      const account = await signUp(app.http);
      const spare = await app.http.post('/v1/keys').set(account.auth).send({ name: 'shared' }).expect(201);
      const headers = { Authorization: `Bearer ${spare.body.key}` };
      // Warm the other process's key cache so revocation has to reach it.
      expect((await fetch(`${otherUrl}/v1/account`, { headers })).status).toBe(200);
      expect((await fetch(`${otherUrl}/v1/account`, { headers })).status).toBe(200);

      await app.http.delete(`/v1/keys/${spare.body.id}`).set(account.auth).expect(204);
      await waitFor(
        async () => (await fetch(`${otherUrl}/v1/account`, { headers })).status === 401,
        1000,
        'revocation',
      );
    });
  });
});
