import { generateApiKey } from '@app/accounts';
import { AppEnv } from '@app/core';
import { createApiApp } from '../support/api-app';
import { statisticsOnceAlone } from '../support/database';
import { signUp, uniqueEmail } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import {
  randomIp,
  rateLimited,
  rateLimitHeadersOf,
  retryAfterOf,
  together,
  windowWithRoom,
} from '../support/rate-limiting';

describe('rate limiting per client address', () => {
  describe('per client IP', () => {
    let app: TestHttpApp;

    beforeAll(async () => {
      app = await createApiApp({
        env: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: '5', RATE_LIMIT_SIGNUP_PER_HOUR: '3', TRUST_PROXY: 'true' },
      });
    });
    afterAll(() => app.close());

    it('limits requests without a valid key per client address, behind a trusted proxy', async () => {
      await windowWithRoom(60, 10_000);
      const ip = randomIp();
      for (let i = 1; i <= 5; i++) {
        const call = app.http.get('/v1/pets').set('X-Forwarded-For', ip);
        const response = await (i % 2 ? call : call.set('Authorization', 'Bearer pet_test_unknown')).expect(401);
        expect(response.headers['www-authenticate']).toBe('Bearer');
        expect(rateLimitHeadersOf(response.headers)).toMatchObject({ limit: 5, remaining: 5 - i });
      }
      const refused = await app.http.get('/v1/pets').set('X-Forwarded-For', ip).expect(429);
      expect(refused.body).toEqual(rateLimited);
      expect(retryAfterOf(refused.headers)).toBeGreaterThanOrEqual(1);

      const elsewhere = await app.http.get('/v1/pets').set('X-Forwarded-For', randomIp()).expect(401);
      expect(rateLimitHeadersOf(elsewhere.headers)).toMatchObject({ limit: 5, remaining: 4 });
    });

    it('limits sign-ups per client address and hour window, whatever the outcome, even with a key', async () => {
      await windowWithRoom(3600, 10_000);
      await windowWithRoom(60, 10_000);
      const ip = randomIp();
      const first = await app.http.post('/v1/accounts').set('X-Forwarded-For', ip).send({ email: uniqueEmail() });
      expect(first.status).toBe(201);
      expect(rateLimitHeadersOf(first.headers)).toMatchObject({ limit: 3, remaining: 2 });
      await app.http.post('/v1/accounts').set('X-Forwarded-For', ip).send({ email: 'not-an-email' }).expect(400);
      await app.http.post('/v1/accounts').set('X-Forwarded-For', ip).send({ email: uniqueEmail() }).expect(201);

      const refused = await app.http
        .post('/v1/accounts')
        .set('X-Forwarded-For', ip)
        .set('Authorization', `Bearer ${first.body.apiKey.key}`)
        .send({ email: uniqueEmail() })
        .expect(429);
      expect(refused.body).toEqual(rateLimited);
      expect(rateLimitHeadersOf(refused.headers)).toMatchObject({ limit: 3, remaining: 0 });
      expect(refused.headers['ratelimit-policy']).toBe('"minute";q=5;w=60, "signup";q=3;w=3600');
      expect(retryAfterOf(refused.headers)).toBeGreaterThanOrEqual(10);
      expect(retryAfterOf(refused.headers)).toBeLessThanOrEqual(3600);

      await app.http.post('/v1/accounts').set('X-Forwarded-For', randomIp()).send({ email: uniqueEmail() }).expect(201);
      const key = { Authorization: `Bearer ${first.body.apiKey.key}` };
      const own = await app.http.get('/v1/account').set('X-Forwarded-For', ip).set(key).expect(200);
      expect(rateLimitHeadersOf(own.headers)).toMatchObject({ limit: 60, remaining: 59 });
    });

    it('counts a valid key it had to look up against its account only, not its address too', async () => {
      await windowWithRoom(60, 10_000);
      const ip = randomIp();
      const account = await signUp(app.http, uniqueEmail(), { 'X-Forwarded-For': randomIp() });
      const own = await app.http.get('/v1/account').set('X-Forwarded-For', ip).set(account.auth).expect(200);
      expect(rateLimitHeadersOf(own.headers)).toMatchObject({ limit: 60, remaining: 59 });
      const keyless = await app.http.get('/v1/pets').set('X-Forwarded-For', ip).expect(401);
      expect(rateLimitHeadersOf(keyless.headers)).toMatchObject({ limit: 5, remaining: 4 });
    });

    it('refuses a key it would have to look up from an address over its limit, and serves it once known', async () => {
      await windowWithRoom(60, 10_000);
      const ip = randomIp();
      const account = await signUp(app.http, uniqueEmail(), { 'X-Forwarded-For': randomIp() });
      for (let i = 0; i < 5; i++) await app.http.get('/v1/pets').set('X-Forwarded-For', ip).expect(401);

      const refused = await app.http.get('/v1/account').set('X-Forwarded-For', ip).set(account.auth).expect(429);
      expect(refused.body).toEqual(rateLimited);
      expect(rateLimitHeadersOf(refused.headers)).toMatchObject({ limit: 5, remaining: 0 });

      // Looked up for a request from an address with room, the key is cached and its account decides.
      await app.http.get('/v1/account').set('X-Forwarded-For', randomIp()).set(account.auth).expect(200);
      const served = await app.http.get('/v1/account').set('X-Forwarded-For', ip).set(account.auth).expect(200);
      expect(rateLimitHeadersOf(served.headers)).toMatchObject({ limit: 60, remaining: 58 });
    });

    it('ignores X-Forwarded-For unless the proxy is trusted', async () => {
      // Both requests count against 127.0.0.1, which earlier suites may have used plenty this minute.
      const direct = await createApiApp({ env: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000' } });
      try {
        await windowWithRoom(60, 5000);
        const first = await direct.http.get('/v1/pets').set('X-Forwarded-For', randomIp()).expect(401);
        const second = await direct.http.get('/v1/pets').set('X-Forwarded-For', randomIp()).expect(401);
        expect(rateLimitHeadersOf(second.headers).remaining).toBe(rateLimitHeadersOf(first.headers).remaining - 1);
      } finally {
        await direct.close();
      }
    });
  });

  describe('key lookups', () => {
    const lookupsSoFar = () =>
      statisticsOnceAlone(async (client) => {
        const { rows } = await client.query<{ scans: string }>(
          `SELECT idx_scan AS scans FROM pg_stat_user_indexes WHERE indexrelname = 'api_keys_key_hash_key'`,
        );
        return Number(rows[0]!.scans);
      });
    const madeUpKey = () => `Bearer ${generateApiKey(AppEnv.Development).secret}`;

    it('counts a made-up key against the client address before looking it up, and refuses it there when over', async () => {
      await windowWithRoom(60, 20_000);
      const before = await lookupsSoFar();
      const app = await createApiApp({ env: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: '5', TRUST_PROXY: 'true' } });
      try {
        const ip = randomIp();
        for (let i = 1; i <= 5; i++) {
          const call = app.http.get('/v1/pets').set('X-Forwarded-For', ip).set('Authorization', madeUpKey());
          const response = await call.expect(401);
          expect(rateLimitHeadersOf(response.headers)).toMatchObject({ limit: 5, remaining: 5 - i });
        }
        const refused = await together(100, () =>
          app.http.get('/v1/pets').set('X-Forwarded-For', ip).set('Authorization', madeUpKey()),
        );
        expect(refused.map((response) => response.status)).toEqual(Array(100).fill(429));
        expect(refused[0]!.body).toEqual(rateLimited);
        expect(rateLimitHeadersOf(refused[0]!.headers)).toMatchObject({ limit: 5, remaining: 0 });
      } finally {
        await app.close();
      }
      // The five admitted keys were looked up, none of the refused ones.
      expect(await lookupsSoFar()).toBe(before + 5);
    });
  });
});
