import { randomUUID } from 'node:crypto';
import { AccountsService, generateApiKey } from '@app/accounts';
import { AppEnv } from '@app/core';
import { PetsService } from '@app/pets';
import { RateLimitStore } from '@app/rate-limiting';
import { createApiApp } from './support/api-app';
import { statisticsOnceAlone } from './support/database';
import { signUp, TestAccount, uniqueEmail } from './support/factories';
import type { TestHttpApp } from './support/http-app';
import { waitFor } from './support/processes';
import {
  ageRefusals,
  randomIp,
  rateLimitHeadersOf,
  redisNowMs,
  refusalsLogged,
  sleep,
  together,
  watchScripts,
  windowWithRoom,
} from './support/rate-limiting';

const rateLimited = { code: 'rate_limited', message: expect.any(String), status: 429 };
const banned = { code: 'api_key_banned', message: expect.any(String), status: 429 };

const retryAfterOf = (headers: Record<string, string>) => Number(headers['retry-after']);

describe('rate limiting', () => {
  describe('headers', () => {
    let app: TestHttpApp;
    let account: TestAccount;
    const failingPets = { list: () => Promise.reject(new Error('boom')) };

    beforeAll(async () => {
      app = await createApiApp({
        env: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000', TRUST_PROXY: 'true' },
        providers: [{ provide: PetsService, useValue: failingPets }],
      });
      // An address of its own: earlier suites' requests from 127.0.0.1 may fill this minute's 1000.
      account = await signUp(app.http, uniqueEmail(), { 'X-Forwarded-For': randomIp() });
    });
    afterAll(() => app.close());

    it('carries the account’s minute window on success and on every error status, counting each request', async () => {
      await windowWithRoom(60, 8000);
      const calls: Array<[number, () => Promise<{ status: number; headers: Record<string, string> }>]> = [
        [200, () => app.http.get('/v1/account').set(account.auth)],
        [
          400,
          () =>
            app.http
              .post('/v1/keys')
              .set(account.auth)
              .send({ name: 'n'.repeat(101) }),
        ],
        [404, () => app.http.delete('/v1/keys/99999999').set(account.auth)],
        [500, () => app.http.get('/v1/pets').set(account.auth)],
        // Failures before any route is reached are counted and carry the headers too.
        [404, () => app.http.get('/v1/nowhere').set(account.auth)],
        [404, () => app.http.get('/outside-v1').set(account.auth)],
        [
          400,
          () => app.http.post('/v1/pets').set(account.auth).set('Content-Type', 'application/json').send('{"name":'),
        ],
        [
          413,
          () =>
            app.http
              .post('/v1/pets')
              .set(account.auth)
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
      const shared = { name: 'minute', key: `rate-limit:batch-test:${marker}:shared`, limit: 2, seconds: 60 };
      const other = { name: 'day', key: `rate-limit:batch-test:${marker}:other`, limit: 5, seconds: 86_400 };
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
      expect(await refusalsLogged(keyId)).toBe(2);
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

  describe('per account, with a 6-second minute window', () => {
    const WINDOW = 6;
    let app: TestHttpApp;

    beforeAll(async () => {
      app = await createApiApp({ env: { RATE_LIMIT_MINUTE_WINDOW_SECONDS: String(WINDOW) } });
    });
    afterAll(() => app.close());

    it('answers the 61st request of a Free account with 429 rate_limited and Retry-After, then admits again', async () => {
      const account = await signUp(app.http);
      await windowWithRoom(WINDOW, 4000);
      for (let i = 1; i <= 60; i++) {
        const response = await app.http.get('/v1/account').set(account.auth).expect(200);
        expect(rateLimitHeadersOf(response.headers)).toMatchObject({ limit: 60, remaining: 60 - i });
      }
      const refused = await app.http.get('/v1/account').set(account.auth).expect(429);
      expect(refused.body).toEqual(rateLimited);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      const retryAfter = retryAfterOf(refused.headers);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(WINDOW);
      const headers = rateLimitHeadersOf(refused.headers);
      expect(headers).toMatchObject({ limit: 60, remaining: 0 });
      expect(headers.reset * 1000 - (await redisNowMs())).toBeLessThanOrEqual(retryAfter * 1000);

      await sleep(retryAfter * 1000 + 100);
      const again = await app.http.get('/v1/account').set(account.auth).expect(200);
      expect(rateLimitHeadersOf(again.headers)).toMatchObject({ limit: 60, remaining: 59 });
    });

    it('shares the quota between all keys of an account', async () => {
      const account = await signUp(app.http);
      const second = await app.http.post('/v1/keys').set(account.auth).send({ name: 'second' }).expect(201);
      const secondAuth = { Authorization: `Bearer ${second.body.key}` };
      // A whole fresh window, so that issuing the key is not counted in it.
      await windowWithRoom(WINDOW, WINDOW * 1000);
      for (let i = 0; i < 30; i++) {
        await app.http.get('/v1/account').set(account.auth).expect(200);
        await app.http.get('/v1/account').set(secondAuth).expect(200);
      }
      expect((await app.http.get('/v1/account').set(secondAuth).expect(429)).body).toEqual(rateLimited);
      expect((await app.http.get('/v1/account').set(account.auth).expect(429)).body).toEqual(rateLimited);
    });

    it('does not count refused requests against any window', async () => {
      const account = await signUp(app.http);
      // The day's count is checked after a wait: all of it in one day, whatever the hour.
      await windowWithRoom(86_400, 30_000);
      await windowWithRoom(WINDOW, 4000);
      for (let i = 0; i < 60; i++) await app.http.get('/v1/account').set(account.auth).expect(200);
      let refused = await app.http.get('/v1/account').set(account.auth).expect(429);
      for (let i = 0; i < 10; i++) refused = await app.http.get('/v1/account').set(account.auth).expect(429);
      await sleep(retryAfterOf(refused.headers) * 1000 + 100);
      const next = await app.http.get('/v1/account').set(account.auth).expect(200);
      expect(next.headers.ratelimit).toMatch(/^"minute";r=59;t=\d+, "day";r=939;t=\d+$/);
    });

    it('refuses by the day window without spending a minute slot, until the day is over', async () => {
      const account = await signUp(app.http);
      await app.app.get(AccountsService).setPlan(account.email, 'enterprise', { perMinute: 1000, perDay: 5 });
      await windowWithRoom(86400, 10_000);
      await windowWithRoom(WINDOW, 3000);
      let last = await app.http.get('/v1/account').set(account.auth).expect(200);
      expect(rateLimitHeadersOf(last.headers)).toMatchObject({ limit: 5, remaining: 4 });
      for (let i = 0; i < 4; i++) last = await app.http.get('/v1/account').set(account.auth).expect(200);
      const headers = rateLimitHeadersOf(last.headers);
      expect(headers).toMatchObject({ limit: 5, remaining: 0 });
      expect(headers.reset % 86400).toBe(0);

      const refused = await app.http.get('/v1/account').set(account.auth).expect(429);
      expect(refused.body).toEqual(rateLimited);
      expect(rateLimitHeadersOf(refused.headers)).toEqual(headers);
      expect(refused.headers.ratelimit).toMatch(/^"minute";r=995;t=\d+, "day";r=0;t=\d+$/);
      const secondsToMidnight = headers.reset - Math.floor((await redisNowMs()) / 1000);
      expect(Math.abs(retryAfterOf(refused.headers) - secondsToMidnight)).toBeLessThanOrEqual(1);
      expect(retryAfterOf(refused.headers)).toBeGreaterThan(WINDOW);
    });
  });

  describe('a plan change', () => {
    let app: TestHttpApp;

    beforeAll(async () => {
      app = await createApiApp({ env: { RATE_LIMIT_BAN_AFTER: '1000' } });
    });
    afterAll(() => app.close());

    it('applies within seconds, even to an account that is over its old limit', async () => {
      const account = await signUp(app.http);
      await windowWithRoom(60, 15_000);
      for (let i = 0; i < 60; i++) await app.http.get('/v1/account').set(account.auth).expect(200);
      await app.http.get('/v1/account').set(account.auth).expect(429);

      await app.app.get(AccountsService).setPlan(account.email, 'pro');
      await waitFor(
        async () => (await app.http.get('/v1/account').set(account.auth)).status === 200,
        5000,
        'the pro plan',
      );
      const response = await app.http.get('/v1/account').set(account.auth).expect(200);
      expect(rateLimitHeadersOf(response.headers)).toMatchObject({ limit: 300, remaining: 238 });
      expect(response.headers['ratelimit-policy']).toBe('"minute";q=300;w=60, "day";q=10000;w=86400');
    });
  });

  describe('the temporary ban', () => {
    const WINDOW = 2;
    const BAN_SECONDS = 4;
    let app: TestHttpApp;

    beforeAll(async () => {
      app = await createApiApp({
        env: {
          RATE_LIMIT_MINUTE_WINDOW_SECONDS: String(WINDOW),
          RATE_LIMIT_BAN_AFTER: '3',
          RATE_LIMIT_BAN_SECONDS: String(BAN_SECONDS),
        },
      });
    });
    afterAll(() => app.close());

    it('bans a key that keeps sending after 429s, lets the account’s other keys work, and lifts itself', async () => {
      const account = await signUp(app.http);
      await app.app.get(AccountsService).setPlan(account.email, 'enterprise', { perMinute: 2, perDay: 1000 });
      await windowWithRoom(WINDOW, 1500);
      const other = await app.http.post('/v1/keys').set(account.auth).send({ name: 'other' }).expect(201);
      const otherAuth = { Authorization: `Bearer ${other.body.key}` };
      await app.http.get('/v1/account').set(account.auth).expect(200);

      let refused = await app.http.get('/v1/account').set(account.auth);
      for (let i = 1; i <= 3; i++) {
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual(rateLimited);
        refused = await app.http.get('/v1/account').set(account.auth);
      }
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(banned);
      expect(retryAfterOf(refused.headers)).toBe(BAN_SECONDS);
      rateLimitHeadersOf(refused.headers);

      await sleep(WINDOW * 1000 + 100);
      const stillBanned = await app.http.get('/v1/account').set(account.auth).expect(429);
      expect(stillBanned.body).toEqual(banned);
      expect(retryAfterOf(stillBanned.headers)).toBeGreaterThanOrEqual(1);
      expect(retryAfterOf(stillBanned.headers)).toBeLessThan(BAN_SECONDS);
      expect(rateLimitHeadersOf(stillBanned.headers)).toMatchObject({ limit: 2, remaining: 2 });
      await app.http.get('/v1/account').set(otherAuth).expect(200);

      await sleep(retryAfterOf(stillBanned.headers) * 1000 + 100);
      await app.http.get('/v1/account').set(account.auth).expect(200);
    });
  });

  describe('the ban’s one-minute look-back', () => {
    const BAN_AFTER = 3;
    let app: TestHttpApp;

    beforeAll(async () => {
      app = await createApiApp({ env: { RATE_LIMIT_BAN_AFTER: String(BAN_AFTER) } });
    });
    afterAll(() => app.close());

    /** An account allowed one request a minute, its minute used up, and BAN_AFTER refusals logged for its key. */
    async function refusedUpToTheBan(): Promise<TestAccount> {
      const account = await signUp(app.http);
      await app.app.get(AccountsService).setPlan(account.email, 'enterprise', { perMinute: 1, perDay: 1000 });
      await windowWithRoom(60, 10_000);
      await app.http.get('/v1/account').set(account.auth).expect(200);
      for (let i = 0; i < BAN_AFTER; i++)
        expect((await app.http.get('/v1/account').set(account.auth).expect(429)).body).toEqual(rateLimited);
      expect(await refusalsLogged(account.keyId)).toBe(BAN_AFTER);
      return account;
    }

    it('no longer counts refusals older than a minute towards the ban', async () => {
      const account = await refusedUpToTheBan();
      await ageRefusals(account.keyId, 61_000);
      const refused = await app.http.get('/v1/account').set(account.auth).expect(429);
      expect(refused.body).toEqual(rateLimited);
      expect(await refusalsLogged(account.keyId)).toBe(1);
    });

    it('bans on one more refusal when the earlier ones are less than a minute old', async () => {
      const account = await refusedUpToTheBan();
      await ageRefusals(account.keyId, 59_000);
      const refused = await app.http.get('/v1/account').set(account.auth).expect(429);
      expect(refused.body).toEqual(banned);
    });
  });

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
