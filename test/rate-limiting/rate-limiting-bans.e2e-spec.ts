import { AccountsService } from '@app/accounts';
import { createApiApp } from '../support/api-app';
import { signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { sleep } from '../support/processes';
import {
  ageRefusals,
  banned,
  rateLimited,
  rateLimitHeadersOf,
  refusalsLogged,
  retryAfterOf,
  windowOver,
  windowWithRoom,
} from '../support/rate-limiting';

describe('rate limiting: the temporary ban', () => {
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

      // The ban outlasts the window its refusals were counted in.
      await windowOver(WINDOW);
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
      expect(await refusalsLogged(`account:${account.accountId}`, account.keyId)).toBe(BAN_AFTER);
      return account;
    }

    it('no longer counts refusals older than a minute towards the ban', async () => {
      const account = await refusedUpToTheBan();
      await ageRefusals(`account:${account.accountId}`, account.keyId, 61_000);
      const refused = await app.http.get('/v1/account').set(account.auth).expect(429);
      expect(refused.body).toEqual(rateLimited);
      expect(await refusalsLogged(`account:${account.accountId}`, account.keyId)).toBe(1);
    });

    it('bans on one more refusal when the earlier ones are less than a minute old', async () => {
      const account = await refusedUpToTheBan();
      await ageRefusals(`account:${account.accountId}`, account.keyId, 59_000);
      const refused = await app.http.get('/v1/account').set(account.auth).expect(429);
      expect(refused.body).toEqual(banned);
    });
  });
});
