import { createApiApp } from '../support/api-app';
import { createAccount, createMessagesApp } from '../support/messages';
import type { TestHttpApp } from '../support/http-app';

describe('methods and browser origins', () => {
  let api: TestHttpApp;
  let messages: TestHttpApp;

  beforeAll(async () => {
    [api, messages] = await Promise.all([
      createApiApp(),
      createMessagesApp({ env: { CORS_ORIGINS: 'https://console.example.org' } }),
    ]);
  });
  afterAll(async () => {
    await api.close();
    await messages.close();
  });

  it('answers 405 with Allow for a known path asked with a method it does not serve', async () => {
    const response = await api.http.delete('/v1/pets').expect(405);
    expect(response.headers.allow).toBe('GET, HEAD, POST');
    expect(response.body).toEqual({ code: 'method_not_allowed', message: expect.stringContaining('GET'), status: 405 });
    expect(response.headers['x-ratelimit-remaining']).toBeDefined();
    const onItem = await api.http.put('/v1/keys/12').expect(405);
    expect(onItem.headers.allow).toBe('DELETE');
    const onMessages = await messages.http.patch('/messages/msg_4ZfQ0hB2kT9xLmN7pR1sV3wY').expect(405);
    expect(onMessages.headers.allow).toBe('GET, HEAD');
  });

  it('still answers 404 for a path no method serves', async () => {
    const response = await api.http.delete('/v1/nothing-here').expect(404);
    expect(response.headers.allow).toBeUndefined();
    expect(response.body.code).toBe('not_found');
  });

  it('lets the api’s Swagger UI call the messages app from the api’s published origins', async () => {
    for (const origin of ['http://localhost:3000', 'http://staging.localhost:3000', 'https://console.example.org']) {
      const preflight = await messages.http
        .options('/messages')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type,idempotency-key')
        .expect(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    }
    const account = await createAccount(messages);
    const sent = await messages.http
      .post('/messages')
      .set(account.auth)
      .set('Origin', 'http://localhost:3000')
      .send({ message: 'from the docs' })
      .expect(202);
    expect(sent.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(sent.headers['access-control-expose-headers']).toEqual(expect.stringContaining('Location'));
    const document = await messages.http.get('/docs/openapi.json').set('Origin', 'http://localhost:3000').expect(200);
    expect(document.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });

  it('gives no other origin access', async () => {
    const preflight = await messages.http
      .options('/messages')
      .set('Origin', 'https://elsewhere.example.net')
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});
