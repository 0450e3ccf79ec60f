import { AccountsService } from '@app/accounts';
import { createApiApp } from '../support/api-app';
import { signUp } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { sleep, waitFor } from '../support/processes';
import { rateLimited, rateLimitHeadersOf, redisNowMs, retryAfterOf, windowWithRoom } from '../support/rate-limiting';

describe('rate limiting per account', () => {
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
});
