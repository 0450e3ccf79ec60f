import { createApiApp } from '../support/api-app';
import type { TestHttpApp } from '../support/http-app';

const TOKEN = 'a-long-admin-token-for-tests';
const basic = (password: string) => `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

describe('queue dashboard (/admin/queues)', () => {
  describe('with ADMIN_TOKEN set', () => {
    let app: TestHttpApp;

    beforeAll(async () => {
      app = await createApiApp({ env: { ADMIN_TOKEN: TOKEN } });
    });
    afterAll(() => app.close());

    it('asks for the admin token with 401 and the Error body', async () => {
      const response = await app.http.get('/admin/queues').expect(401);
      expect(response.body).toMatchObject({ code: 'unauthorized', status: 401 });
      expect(response.headers['www-authenticate']).toMatch(/^Basic realm="queues"/);
      await app.http.get('/admin/queues').set('Authorization', basic('wrong-token-of-some-length')).expect(401);
    });

    it('serves Bull Board with the messages and periodic queues to the admin', async () => {
      const page = await app.http.get('/admin/queues').set('Authorization', basic(TOKEN)).expect(200);
      expect(page.text).toContain('<html');
      const queues = await app.http.get('/admin/queues/api/queues').set('Authorization', `Bearer ${TOKEN}`).expect(200);
      expect(queues.body.queues.map((queue: { name: string }) => queue.name)).toEqual(
        expect.arrayContaining(['messages', 'periodic']),
      );
    });

    it('is not reachable under /v1 or with an API key', async () => {
      await app.http.get('/v1/admin/queues').set('Authorization', basic(TOKEN)).expect(404);
    });
  });

  describe('without ADMIN_TOKEN', () => {
    let app: TestHttpApp;

    beforeAll(async () => {
      app = await createApiApp();
    });
    afterAll(() => app.close());

    it('does not exist', async () => {
      const response = await app.http
        .get('/admin/queues')
        .set('Authorization', basic('anything-at-all-here'))
        .expect(404);
      expect(response.body).toMatchObject({ code: 'not_found', status: 404 });
    });
  });
});
