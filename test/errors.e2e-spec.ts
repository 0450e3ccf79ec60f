import { PetsService } from '@app/pets';
import { createApiApp } from './support/api-app';
import { signUp, TestAccount } from './support/factories';
import type { TestHttpApp } from './support/http-app';
import { TcpProxy } from './support/tcp-proxy';
import { TEST_DATABASE_URL } from './support/test-env';

const ERROR_BODY = { code: expect.any(String), message: expect.any(String), status: expect.any(Number) };

describe('errors', () => {
  describe('from every route', () => {
    let app: TestHttpApp;
    let account: TestAccount;
    const failingPets = { list: () => Promise.reject(new Error('SELECT secret FROM internals')) };

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
    const proxy = new TcpProxy(Number(new URL(TEST_DATABASE_URL).port || 5432));

    beforeAll(async () => {
      const port = await proxy.start();
      const url = new URL(TEST_DATABASE_URL);
      url.port = String(port);
      app = await createApiApp({ env: { DATABASE_URL: url.toString() } });
      account = await signUp(app.http);
    });
    afterAll(async () => {
      await app.close();
      await proxy.cut();
    });

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
});
