import type { Response } from 'supertest';
import { createApiApp } from '../support/api-app';
import { withDatabase } from '../support/database';
import { createPet, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';

interface Endpoint {
  id: number;
  url: string;
  events: string[];
  description?: string;
  enabled: boolean;
  secret?: string;
}

describe('events and webhook endpoints (api)', () => {
  let app: TestHttpApp;
  let owner: TestAccount;
  let stranger: TestAccount;

  const createEndpoint = async (account: TestAccount, body: Record<string, unknown>) =>
    (await app.http.post('/v1/webhook-endpoints').set(account.auth).send(body).expect(201)).body as Endpoint;

  beforeAll(async () => {
    app = await createApiApp();
    owner = await signUp(app.http);
    stranger = await signUp(app.http);
  });
  afterAll(() => app.close());

  describe('webhook endpoints', () => {
    it('creates an endpoint and shows its whsec_ secret only in the 201', async () => {
      const response = await app.http
        .post('/v1/webhook-endpoints')
        .set(owner.auth)
        .send({ url: 'http://127.0.0.1:9/hooks', events: ['pet.created'], description: 'site' })
        .expect(201);
      const created = response.body as Endpoint;
      expect(created).toMatchObject({
        url: 'http://127.0.0.1:9/hooks',
        events: ['pet.created'],
        description: 'site',
        enabled: true,
      });
      expect(response.headers.location).toBe(`/v1/webhook-endpoints/${created.id}`);
      expect(Buffer.from(created.secret!.replace(/^whsec_/, ''), 'base64')).toHaveLength(32);
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

      const fetched = (await app.http.get(`/v1/webhook-endpoints/${created.id}`).set(owner.auth).expect(200)).body;
      expect(fetched).toEqual({ ...created, secret: undefined });
      expect(fetched).not.toHaveProperty('secret');
      const listed = (await app.http.get('/v1/webhook-endpoints').set(owner.auth).expect(200)).body as Endpoint[];
      expect(listed.map((endpoint) => endpoint.id)).toContain(created.id);
      expect(listed.every((endpoint) => !('secret' in endpoint))).toBe(true);
    });

    it('creates one endpoint per Idempotency-Key: a retry is answered 409 naming it, never with its secret', async () => {
      const account = await signUp(app.http);
      const body = { url: 'http://127.0.0.1:9/once', events: ['*'] };
      const create = (sent: object) =>
        app.http.post('/v1/webhook-endpoints').set(account.auth).set('Idempotency-Key', 'endpoint-once').send(sent);
      const created = (await create(body).expect(201)).body as Endpoint;

      const retry = await create(body).expect(409);
      expect(retry.body).toEqual({
        code: 'webhook_endpoint_already_created',
        message: expect.stringContaining(`webhook endpoint ${created.id}`),
        status: 409,
      });
      expect(retry.text).not.toContain(created.secret!.slice(6));
      const other = await create({ ...body, url: 'http://127.0.0.1:9/other' }).expect(422);
      expect(other.body).toMatchObject({ code: 'idempotency_key_reused' });
      const listed = (await app.http.get('/v1/webhook-endpoints').set(account.auth).expect(200)).body as Endpoint[];
      expect(listed.map((endpoint) => endpoint.id)).toEqual([created.id]);

      // The key's record keeps the endpoint but nothing of its secret.
      const stored = await withDatabase(async (db) => {
        const { rows } = await db.query<{ body: string }>(
          `SELECT response_body::text AS body FROM idempotency_keys WHERE account_id = $1 AND key = 'endpoint-once'`,
          [account.accountId],
        );
        return rows[0]!.body;
      });
      expect(JSON.parse(stored)).toEqual({ ...created, secret: undefined });
      expect(stored).not.toContain(created.secret!.slice(6));
    });

    it('changes url, events, description and enabled with PATCH; null removes the description', async () => {
      const { id } = await createEndpoint(owner, { url: 'http://127.0.0.1:9/a', events: ['*'], description: 'x' });
      const changed = (
        await app.http
          .patch(`/v1/webhook-endpoints/${id}`)
          .set(owner.auth)
          .send({
            url: 'http://127.0.0.1:9/b',
            events: ['message.sent', 'message.failed'],
            description: null,
            enabled: false,
          })
          .expect(200)
      ).body as Endpoint;
      expect(changed).toMatchObject({
        id,
        url: 'http://127.0.0.1:9/b',
        events: ['message.sent', 'message.failed'],
        enabled: false,
      });
      expect(changed).not.toHaveProperty('description');
    });

    it.each([
      ['an empty body', {}],
      ['null url', { url: null }],
      ['null enabled', { enabled: null }],
      ['an unknown field', { secret: 'whsec_x' }],
      ['an unknown event type', { events: ['pet.eaten'] }],
      ['no event type', { events: [] }],
    ])('refuses a PATCH with %s', async (_case, body) => {
      const { id } = await createEndpoint(owner, { url: 'http://127.0.0.1:9/c', events: ['*'] });
      const response = await app.http.patch(`/v1/webhook-endpoints/${id}`).set(owner.auth).send(body).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    });

    it.each([
      ['a missing url', { events: ['*'] }],
      ['a relative url', { url: '/hooks', events: ['*'] }],
      ['an ftp url', { url: 'ftp://example.com/hooks', events: ['*'] }],
      ['credentials in the url', { url: 'https://user:pw@example.com/hooks', events: ['*'] }],
      ['missing events', { url: 'https://example.com/hooks' }],
      ['duplicate events', { url: 'https://example.com/hooks', events: ['pet.created', 'pet.created'] }],
      ['a description too long', { url: 'https://example.com/hooks', events: ['*'], description: 'x'.repeat(501) }],
    ])('refuses to create an endpoint with %s', async (_case, body) => {
      const response = await app.http.post('/v1/webhook-endpoints').set(owner.auth).send(body).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    });

    it('answers 404 for another account’s endpoint, on every operation', async () => {
      const { id } = await createEndpoint(owner, { url: 'http://127.0.0.1:9/d', events: ['*'] });
      for (const request of [
        app.http.get(`/v1/webhook-endpoints/${id}`),
        app.http.patch(`/v1/webhook-endpoints/${id}`).send({ enabled: false }),
        app.http.delete(`/v1/webhook-endpoints/${id}`),
        app.http.get(`/v1/webhook-endpoints/${id}/deliveries`),
      ]) {
        const response = await request.set(stranger.auth).expect(404);
        expect(response.body).toMatchObject({ code: 'not_found', status: 404 });
      }
      const listed = (await app.http.get('/v1/webhook-endpoints').set(stranger.auth).expect(200)).body as Endpoint[];
      expect(listed.map((endpoint) => endpoint.id)).not.toContain(id);
      await app.http.get(`/v1/webhook-endpoints/${id}`).set(owner.auth).expect(200);
    });

    it('deletes an endpoint: 204, then 404', async () => {
      const { id } = await createEndpoint(owner, { url: 'http://127.0.0.1:9/e', events: ['*'] });
      await app.http.delete(`/v1/webhook-endpoints/${id}`).set(owner.auth).expect(204);
      await app.http.get(`/v1/webhook-endpoints/${id}`).set(owner.auth).expect(404);
      await app.http.delete(`/v1/webhook-endpoints/${id}`).set(owner.auth).expect(404);
    });

    it('refuses an eleventh endpoint with 409 too_many_webhook_endpoints, also when they are created at once', async () => {
      const account = await signUp(app.http);
      const answers = await Promise.all(
        Array.from({ length: 14 }, (_, i) =>
          app.http
            .post('/v1/webhook-endpoints')
            .set(account.auth)
            .send({ url: `http://127.0.0.1:9/${i}`, events: ['*'] }),
        ),
      );
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(10);
      const refused = answers.filter((answer) => answer.status !== 201);
      expect(refused).toHaveLength(4);
      for (const answer of refused)
        expect(answer.body).toMatchObject({ code: 'too_many_webhook_endpoints', status: 409 });
      const [first] = (await app.http.get('/v1/webhook-endpoints').set(account.auth).expect(200)).body as Endpoint[];
      await app.http.delete(`/v1/webhook-endpoints/${first!.id}`).set(account.auth).expect(204);
      await createEndpoint(account, { url: 'http://127.0.0.1:9/again', events: ['*'] });
    });
  });

  describe('the events feed', () => {
    it('records pet.created for the pet’s lister, with the Pet as it was created', async () => {
      const lister = await signUp(app.http);
      const pet = await createPet(app.http, lister, { name: 'Feedy', categoryId: 2 });
      const events = (await app.http.get('/v1/events').set(lister.auth).expect(200)).body as Array<
        Record<string, unknown>
      >;
      expect(events).toHaveLength(1);
      const [event] = events;
      expect(event).toEqual({
        id: expect.stringMatching(/^evt_[A-Za-z0-9_-]{24}$/),
        type: 'pet.created',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        data: { object: pet },
      });
      expect(
        (
          await app.http
            .get(`/v1/events/${event!.id as string}`)
            .set(lister.auth)
            .expect(200)
        ).body,
      ).toEqual(event);
      // Nobody else receives it.
      await app.http
        .get(`/v1/events/${event!.id as string}`)
        .set(stranger.auth)
        .expect(404);
      const strangers = (await app.http.get('/v1/events').set(stranger.auth).expect(200)).body as Array<{ id: string }>;
      expect(strangers.map((other) => other.id)).not.toContain(event!.id);
    });

    it('lists newest first, filters by type and follows Link pages to every event once', async () => {
      const lister = await signUp(app.http);
      const pets = [];
      for (let i = 0; i < 5; i++) pets.push(await createPet(app.http, lister, { name: `Paged ${i}` }));
      const seen: Array<{ data: { object: { id: number } } }> = [];
      let path: string | undefined = '/v1/events?limit=2&type=pet.created';
      while (path) {
        const response: Response = await app.http.get(path).set(lister.auth).expect(200);
        seen.push(...response.body);
        path = /<([^>]+)>; rel="next"/.exec(response.headers.link ?? '')?.[1];
        if (path) expect(path).toContain('type=pet.created');
      }
      expect(seen.map((event) => event.data.object.id)).toEqual(pets.map((pet) => pet.id).reverse());
      const none = await app.http.get('/v1/events?type=message.sent').set(lister.auth).expect(200);
      expect(none.body).toEqual([]);
    });

    it.each([
      ['/v1/events?type=pet.eaten', 'an unknown type'],
      ['/v1/events?limit=0', 'a limit of 0'],
      ['/v1/events?cursor=nonsense', 'a forged cursor'],
    ])('refuses %s (%s) with validation_failed', async (path) => {
      const response = await app.http.get(path).set(owner.auth).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    });

    it('answers 404 for an event id that is not one', async () => {
      await app.http.get('/v1/events/evt_nope').set(owner.auth).expect(404);
    });
  });
});
