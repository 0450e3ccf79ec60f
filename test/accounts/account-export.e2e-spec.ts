import { AccountsService } from '@app/accounts';
import type { Client } from 'pg';
import { createApiApp } from '../support/api-app';
import { otherSessions, withDatabase } from '../support/database';
import { createPet, createPets, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { createMessagesApp } from '../support/messages';
import { placeOrder } from '../support/orders';
import { waitFor } from '../support/processes';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** More pets than one page of the export's reads (500 rows). */
const MANY_PETS = 1_200;

describe('GET /v1/account/export', () => {
  let app: TestHttpApp;
  let messages: TestHttpApp;
  let lister: TestAccount;
  let adopter: TestAccount;

  const exportOf = async (account: TestAccount): Promise<Json> =>
    (await app.http.get('/v1/account/export').set(account.auth).expect(200)).body;
  const account = async () => {
    const created = await signUp(app.http);
    await app.app.get(AccountsService).setPlan(created.email, 'enterprise');
    return created;
  };

  beforeAll(async () => {
    [app, messages] = await Promise.all([createApiApp(), createMessagesApp()]);
    [lister, adopter] = [await account(), await account()];
  });
  afterAll(async () => {
    await Promise.all([app.close(), messages.close()]);
  });

  it('holds everything of the account, of both roles, and never a secret', async () => {
    await app.http
      .put('/v1/organization')
      .set(lister.auth)
      .send({ name: 'Refuge du Nord', address: { line1: '1 rue Haute', city: 'Lille', country: 'FR' } })
      .expect(201);
    const rex = await createPet(app.http, lister, { name: 'Rex' });
    const mimi = (
      await app.http
        .post('/v1/pets')
        .set(lister.auth)
        .set('Idempotency-Key', 'mimi-once')
        .send({ name: 'Mimi', categoryId: 2 })
        .expect(201)
    ).body;
    const order = await placeOrder(app.http, adopter, rex.id);
    const reader = await app.http
      .post('/v1/keys')
      .set(lister.auth)
      .send({ name: 'reader', scopes: ['pets:read'] });
    const widget = await app.http
      .post('/v1/keys')
      .set(lister.auth)
      .send({ name: 'widget', kind: 'publishable', allowedOrigins: ['https://shelter.example'] });
    const endpoint = await app.http
      .post('/v1/webhook-endpoints')
      .set(lister.auth)
      .send({ url: 'https://shelter.example/hooks', events: ['order.placed'] })
      .expect(201);
    const search = await app.http
      .post('/v1/saved-searches')
      .set(adopter.auth)
      .send({ name: 'Dogs', query: 'categoryId=1' })
      .expect(201);
    const message = await messages.http
      .post('/messages')
      .set(lister.auth)
      .send({ message: 'Rex has a visitor.' })
      .expect(202);

    const response = await app.http.get('/v1/account/export').set(lister.auth).expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    // Streamed as it is read: no length is known when it starts.
    expect(response.headers['transfer-encoding']).toBe('chunked');
    const exported: Json = response.body;
    expect(Object.keys(exported)).toEqual([
      'exportedAt',
      'account',
      'apiKeys',
      'applicationForm',
      'applications',
      'emails',
      'events',
      'webhookEndpoints',
      'idempotencyKeys',
      'messages',
      'orders',
      'organization',
      'pets',
      'savedSearches',
    ]);
    expect(exported.account).toMatchObject({ id: lister.accountId, email: lister.email, plan: 'enterprise' });
    expect(exported.apiKeys.map((key: Json) => key.name)).toEqual(['default', 'reader', 'widget']);
    expect(exported.organization).toMatchObject({ name: 'Refuge du Nord' });
    expect(exported.pets.map((pet: Json) => pet.id)).toEqual([rex.id, mimi.id]);
    expect(exported.pets[0]).toMatchObject({ name: 'Rex', status: 'pending', photos: [] });
    expect(exported.orders).toEqual([expect.objectContaining({ id: order.id, role: 'lister', status: 'placed' })]);
    expect(exported.webhookEndpoints).toEqual([
      expect.objectContaining({ id: endpoint.body.id, url: endpoint.body.url }),
    ]);
    expect(exported.messages).toEqual([
      expect.objectContaining({ id: message.body.id, message: 'Rex has a visitor.' }),
    ]);
    expect(exported.idempotencyKeys).toEqual([
      expect.objectContaining({ key: 'mimi-once', responseStatus: 201, responseLocation: `/v1/pets/${mimi.id}` }),
    ]);
    expect(exported.savedSearches).toEqual([]);
    expect(exported.events.map((event: Json) => event.type)).toEqual(
      expect.arrayContaining(['pet.created', 'order.placed']),
    );
    // Newest first, as the feed.
    const times = exported.events.map((event: Json) => event.createdAt);
    expect(times).toEqual([...times].sort().reverse());

    // No secret: the keys' and the endpoint's are in no member. A publishable key is no secret.
    for (const secret of [lister.key, reader.body.key, endpoint.body.secret])
      expect(response.text).not.toContain(secret);
    expect(exported.apiKeys[2].key).toBe(widget.body.key);
    expect(exported.webhookEndpoints[0]).not.toHaveProperty('secret');

    const adopterExport = await exportOf(adopter);
    expect(adopterExport.orders).toEqual([expect.objectContaining({ id: order.id, role: 'adopter' })]);
    expect(adopterExport.savedSearches).toEqual([expect.objectContaining({ id: search.body.id, name: 'Dogs' })]);
    expect(adopterExport).toMatchObject({ organization: null, pets: [], messages: [], webhookEndpoints: [] });
  });

  it('reads every section at one moment, however many pages it walks, whatever commits meanwhile', async () => {
    const shelter = await account();
    const pets = await createPets(app.http, shelter, MANY_PETS);

    // The export reads its sections in order: held at the idempotency keys' (a table nothing below touches),
    // it has read the account and its events already, and has its pets still to read.
    const held = await withDatabase(async (locker: Client) => {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE idempotency_keys IN ACCESS EXCLUSIVE MODE');
      const exporting = Promise.resolve(app.http.get('/v1/account/export').set(shelter.auth));
      await waitFor(
        async () => (await otherSessions(`wait_event_type = 'Lock' AND query LIKE '%FROM idempotency_keys%'`)) === 1,
        10_000,
        'the export to wait for the idempotency keys',
      );
      await app.http.delete(`/v1/pets/${pets[0]!.id}`).set(shelter.auth).expect(204);
      const added = await createPet(app.http, shelter, { name: 'Late' });
      await app.http.put('/v1/organization').set(shelter.auth).send({ name: 'Late Shelter' }).expect(201);
      await locker.query('ROLLBACK');
      return { exporting, added };
    });
    const response = await held.exporting;
    expect(response.status).toBe(200);
    const exported: Json = response.body;
    expect(exported.pets.map((pet: Json) => pet.id)).toEqual(pets.map((pet) => pet.id));
    expect(exported.pets.map((pet: Json) => pet.id)).not.toContain(held.added.id);
    expect(exported.organization).toBeNull();
    expect(exported.events.filter((event: Json) => event.type === 'pet.deleted')).toEqual([]);

    // Read again, it is the account as it is now.
    const now = await exportOf(shelter);
    expect(now.pets).toHaveLength(MANY_PETS);
    expect(now.pets.at(-1).id).toBe(held.added.id);
    expect(now.organization).toMatchObject({ name: 'Late Shelter' });
  });

  it('answers 403 insufficient_scope to a key without *, publishable keys included, and 401 without a key', async () => {
    const restricted = await app.http
      .post('/v1/keys')
      .set(lister.auth)
      .send({ name: 'almost all', scopes: ['account:read', 'keys:write', 'pets:write', 'orders:write'] })
      .expect(201);
    const publishable = await app.http
      .post('/v1/keys')
      .set(lister.auth)
      .send({ kind: 'publishable', allowedOrigins: ['https://shelter.example'] })
      .expect(201);
    for (const key of [restricted.body.key, publishable.body.key]) {
      const refused = await app.http.get('/v1/account/export').set('Authorization', `Bearer ${key}`).expect(403);
      expect(refused.body).toEqual({ code: 'insufficient_scope', message: expect.any(String), status: 403 });
    }
    await app.http.get('/v1/account/export').expect(401);
  });
});
