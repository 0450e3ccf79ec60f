import { randomUUID } from 'node:crypto';
import { PetsService } from '@app/pets';
import { RateLimitStore } from '@app/rate-limiting';
import { createApiApp } from '../support/api-app';
import { signUp, TestAccount, uniqueEmail } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import {
  randomIp,
  rateLimitHeadersOf,
  redisNowMs,
  refusalsLogged,
  watchScripts,
  windowWithRoom,
} from '../support/rate-limiting';

describe('rate limiting: the headers every answer carries', () => {
  describe('headers', () => {
    let app: TestHttpApp;
    let account: TestAccount;
    /** The account's key and an address of its own, so its first (uncached) request is not counted
     * against 127.0.0.1, whose minute earlier suites may have filled. */
    let caller: Record<string, string>;
    // The listing's own method, typed, so a renamed method fails to compile instead of failing with a TypeError.
    const failingPets = { search: () => Promise.reject(new Error('boom')) } satisfies Partial<PetsService>;

    beforeAll(async () => {
      app = await createApiApp({
        env: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000', TRUST_PROXY: 'true' },
        providers: [{ provide: PetsService, useValue: failingPets }],
      });
      // An address of its own: earlier suites' requests from 127.0.0.1 may fill this minute's 1000.
      const address = randomIp();
      account = await signUp(app.http, uniqueEmail(), { 'X-Forwarded-For': address });
      caller = { ...account.auth, 'X-Forwarded-For': address };
    });
    afterAll(() => app.close());

    it('carries the account’s minute window on success and on every error status, counting each request', async () => {
      await windowWithRoom(60, 8000);
      const calls: Array<[number, () => Promise<{ status: number; headers: Record<string, string> }>]> = [
        [200, () => app.http.get('/v1/account').set(caller)],
        [
          400,
          () =>
            app.http
              .post('/v1/keys')
              .set(caller)
              .send({ name: 'n'.repeat(101) }),
        ],
        [404, () => app.http.delete('/v1/keys/99999999').set(caller)],
        [500, () => app.http.get('/v1/pets').set(caller)],
        // Failures before any route is reached are counted and carry the headers too.
        [404, () => app.http.get('/v1/nowhere').set(caller)],
        [404, () => app.http.get('/outside-v1').set(caller)],
        [400, () => app.http.post('/v1/pets').set(caller).set('Content-Type', 'application/json').send('{"name":')],
        [
          413,
          () =>
            app.http
              .post('/v1/pets')
              .set(caller)
              .send({ name: 'x'.repeat(70 * 1024), categoryId: 1 }),
        ],
      ];
      let expectedRemaining = 60;
      for (const [status, call] of calls) {
        const before = await redisNowMs();
        const response = await call();
        expect(response.status).toBe(status);
        const headers = rateLimitHeadersOf(response.headers);
        expectedRemaining--;
        expect(headers).toEqual({ limit: 60, remaining: expectedRemaining, reset: expect.any(Number) });
        expect(headers.reset % 60).toBe(0);
        expect(headers.reset * 1000).toBeGreaterThan(before);
        expect(headers.reset * 1000).toBeLessThanOrEqual(before + 60_000);
        expect(response.headers['ratelimit-policy']).toBe('"minute";q=60;w=60, "day";q=1000;w=86400');
        expect(response.headers.ratelimit).toMatch(
          new RegExp(`^"minute";r=${expectedRemaining};t=\\d+, "day";r=${1000 - (60 - expectedRemaining)};t=\\d+$`),
        );
      }
    });

    it('carries the client IP’s window on a 401', async () => {
      const response = await app.http.get('/v1/pets').set('X-Forwarded-For', randomIp()).expect(401);
      expect(response.body).toMatchObject({ code: 'unauthorized', status: 401 });
      expect(rateLimitHeadersOf(response.headers)).toMatchObject({ limit: 1000, remaining: 999 });
      expect(response.headers['ratelimit-policy']).toBe('"minute";q=1000;w=60');
    });

    it('carries the sign-up window on sign-up, also on a 409', async () => {
      await windowWithRoom(60, 5000);
      const ip = randomIp();
      const email = uniqueEmail('rl-taken');
      await app.http.post('/v1/accounts').set('X-Forwarded-For', ip).send({ email }).expect(201);
      const response = await app.http.post('/v1/accounts').set('X-Forwarded-For', ip).send({ email }).expect(409);
      expect(rateLimitHeadersOf(response.headers)).toMatchObject({ limit: 1000, remaining: 998 });
      expect(response.headers['ratelimit-policy']).toBe('"minute";q=1000;w=60, "signup";q=100000;w=3600');
    });

    it('decides requests that arrive together in one call, in order, each as if alone', async () => {
      const store = app.app.get(RateLimitStore);
      const marker = randomUUID();
      const shared = { name: 'minute', key: `rate-limit:batch-test:shared:{${marker}}`, limit: 2, seconds: 60 };
      const other = { name: 'day', key: `rate-limit:batch-test:other:{${marker}}`, limit: 5, seconds: 86_400 };
      const keyId = Number.MAX_SAFE_INTEGER - Math.floor(Math.random() * 1e6);
      await windowWithRoom(60, 5000);
      const scripts = await watchScripts(marker);
      try {
        // Started in the same turn: one batch, whose requests differ in windows and in ban tracking.
        const decisions = await Promise.all([
          store.consume([shared]),
          store.consume([shared, other], keyId),
          store.consume([other]),
          store.consume([shared, other], keyId),
          store.consume([shared], keyId),
        ]);

        expect(decisions.map((decision) => decision.admitted)).toEqual([true, true, true, false, false]);
        expect(decisions.map((decision) => decision.windows.map((window) => window.count))).toEqual([
          [1],
          [2, 1],
          [2],
          [2, 2],
          [2],
        ]);
        expect(decisions.every((decision) => decision.nowMs === decisions[0]!.nowMs && decision.banMs === 0)).toBe(
          true,
        );
        expect(await scripts.calls()).toBe(1);
      } finally {
        scripts.stop();
      }
      // Both refusals of the key are logged towards its ban, not merged into one.
      expect(await refusalsLogged(marker, keyId)).toBe(2);
    });

    it.each(['/health/live', '/health/ready', '/metrics', '/docs/openapi.json'])(
      'leaves %s unlimited and without rate-limit headers',
      async (path) => {
        const response = await app.http.get(path).expect(200);
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit']) {
          expect(response.headers[name]).toBeUndefined();
        }
      },
    );
  });
});
