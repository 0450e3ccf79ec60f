import { AccountsService } from '@app/accounts';
import { PetsService } from '@app/pets';
import { MessagesService } from '../../libs/messaging/src/messages.service';
import { createApiApp } from '../support/api-app';
import { signUp, TestAccount } from '../support/factories';
import type { TestAppOverrides, TestHttpApp } from '../support/http-app';
import { createAccount, createMessagesApp } from '../support/messages';
import { windowWithRoom } from '../support/rate-limiting';
import { TcpProxy } from '../../bench/support/tcp-proxy';
import { TEST_DATABASE_URL } from '../support/test-env';

const ERROR_BODY = { code: expect.any(String), message: expect.any(String), status: expect.any(Number) };

interface AppBehindProxy {
  app: TestHttpApp;
  /** Cut it, and PostgreSQL is gone for this app alone. */
  proxy: TcpProxy;
  close: () => Promise<void>;
}

/** An app whose connections to the test database go through a proxy that a test can cut. */
async function behindProxy(create: (overrides: TestAppOverrides) => Promise<TestHttpApp>): Promise<AppBehindProxy> {
  const proxy = new TcpProxy(Number(new URL(TEST_DATABASE_URL).port || 5432));
  const url = new URL(TEST_DATABASE_URL);
  url.port = String(await proxy.start());
  const app = await create({ env: { DATABASE_URL: url.toString() } });
  const close = async () => {
    await app.close();
    await proxy.cut();
  };
  return { app, proxy, close };
}

describe('errors', () => {
  describe('from every route', () => {
    let app: TestHttpApp;
    let account: TestAccount;
    // The listing's own method, typed, so a renamed method fails to compile instead of failing with a TypeError.
    const failingPets = {
      search: () => Promise.reject(new Error('SELECT secret FROM internals')),
    } satisfies Partial<PetsService>;

    beforeAll(async () => {
      app = await createApiApp({ providers: [{ provide: PetsService, useValue: failingPets }] });
      account = await signUp(app.http);
    });
    afterAll(() => app.close());

    it('answers an unknown route with 404 not_found as JSON', async () => {
      const response = await app.http.get('/v1/nowhere').set(account.auth).expect(404);
      expect(response.body).toEqual({ code: 'not_found', message: expect.any(String), status: 404 });
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    });

    it('sends security headers and no X-Powered-By, on errors too', async () => {
      for (const response of [
        await app.http.get('/v1/categories').set(account.auth),
        await app.http.get('/v1/nowhere'),
      ]) {
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['strict-transport-security']).toMatch(/max-age=/);
        expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
        expect(response.headers['x-powered-by']).toBeUndefined();
      }
    });

    it('answers an unknown route outside /v1 with 404 not_found', async () => {
      const response = await app.http.get('/admin').expect(404);
      expect(response.body).toMatchObject({ code: 'not_found', status: 404 });
    });

    it('answers an unexpected failure with 500 internal_error and no internals', async () => {
      const response = await app.http.get('/v1/pets').set(account.auth).expect(500);
      expect(response.body).toEqual({ code: 'internal_error', message: expect.any(String), status: 500 });
      expect(JSON.stringify(response.body)).not.toMatch(/SELECT|secret|at .*\.ts/);
    });

    it('answers an unsupported JSON charset with unsupported_content_type', async () => {
      const response = await app.http
        .post('/v1/accounts')
        .set('Content-Type', 'application/json; charset=latin1')
        .send('{"email":"x@example.com"}')
        .expect(400);
      expect(response.body).toMatchObject({ code: 'unsupported_content_type', status: 400 });
    });

    it('accepts a JSON content type with a utf-8 charset', async () => {
      await app.http
        .post('/v1/accounts')
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ email: `charset-${Date.now()}@example.com` }))
        .expect(201);
    });
  });

  describe('when PostgreSQL is unreachable', () => {
    let app: TestHttpApp;
    let account: TestAccount;
    let proxy: TcpProxy;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ app, proxy, close } = await behindProxy(createApiApp));
      account = await signUp(app.http);
    });
    afterAll(() => close());

    it('answers 503 service_unavailable with Retry-After, then recovers without a restart', async () => {
      await app.http.get('/v1/pets').set(account.auth).expect(200);
      await proxy.cut();

      const down = await app.http
        .post('/v1/accounts')
        .send({ email: `down-${Date.now()}@example.com` })
        .expect(503);
      expect(down.body).toEqual({ code: 'service_unavailable', message: expect.any(String), status: 503 });
      expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
      const ready = await app.http.get('/health/ready').expect(503);
      expect(ready.body).toMatchObject({ ...ERROR_BODY, code: 'service_unavailable', status: 503 });

      await proxy.restore();
      await app.http.get('/v1/pets').set(account.auth).expect(200);
      await app.http.get('/health/ready').expect(200);
    });
  });

  describe('from the messages app', () => {
    let app: TestHttpApp;
    let account: TestAccount;
    let proxy: TcpProxy;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ app, proxy, close } = await behindProxy(createMessagesApp));
      account = await createAccount(app);
    });
    afterAll(() => close());

    it.each(['/nowhere', '/messages/msg_000000000000000000000000/unknown'])(
      'answers the unknown route %s with 404 not_found as JSON',
      async (path) => {
        const response = await app.http.get(path).set(account.auth).expect(404);
        expect(response.body).toEqual({ code: 'not_found', message: expect.any(String), status: 404 });
        expect(response.headers['content-type']).toMatch(/^application\/json/);
      },
    );

    it('answers a body over 64 KiB with 413 payload_too_large', async () => {
      const response = await app.http
        .post('/messages')
        .set(account.auth)
        .send({ message: 'x'.repeat(70 * 1024) })
        .expect(413);
      expect(response.body).toEqual({ code: 'payload_too_large', message: expect.any(String), status: 413 });
    });

    it('answers an unexpected failure with 500 internal_error and no internals', async () => {
      const failingMessages = {
        list: () => Promise.reject(new Error('SELECT secret FROM internals')),
      } satisfies Partial<MessagesService>;
      const failing = await createMessagesApp({ providers: [{ provide: MessagesService, useValue: failingMessages }] });
      try {
        const response = await failing.http.get('/messages').set(account.auth).expect(500);
        expect(response.body).toEqual({ code: 'internal_error', message: expect.any(String), status: 500 });
        expect(JSON.stringify(response.body)).not.toMatch(/SELECT|secret|at .*\.ts/);
      } finally {
        await failing.close();
      }
    });

    it('answers a request over the account’s limit with 429 rate_limited and Retry-After', async () => {
      const limited = await createAccount(app);
      await app.app.get(AccountsService).setPlan(limited.email, 'enterprise', { perMinute: 2, perDay: 1000 });
      await windowWithRoom(60, 10_000);
      for (let i = 0; i < 2; i++) await app.http.get('/messages/msg_000000000000000000000000').set(limited.auth);
      const refused = await app.http.get('/messages/msg_000000000000000000000000').set(limited.auth).expect(429);
      expect(refused.body).toEqual({ code: 'rate_limited', message: expect.any(String), status: 429 });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.headers['x-ratelimit-limit']).toBe('2');
    });

    it('answers 503 service_unavailable with Retry-After while PostgreSQL is down, then recovers', async () => {
      await app.http.get('/health/ready').expect(200);
      await proxy.cut();
      try {
        const down = await app.http.post('/messages').set(account.auth).send({ message: 'while down' }).expect(503);
        expect(down.body).toEqual({ code: 'service_unavailable', message: expect.any(String), status: 503 });
        expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
        const ready = await app.http.get('/health/ready').expect(503);
        expect(ready.body).toMatchObject({ ...ERROR_BODY, code: 'service_unavailable', status: 503 });
      } finally {
        await proxy.restore();
      }
      await app.http.post('/messages').set(account.auth).send({ message: 'back' }).expect(202);
    });
  });
});
