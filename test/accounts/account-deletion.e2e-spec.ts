import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountsService } from '@app/accounts';
import { createApiApp } from '../support/api-app';
import { withDatabase } from '../support/database';
import { createPet, createPets, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { createMessagesApp } from '../support/messages';
import { OrderBody, placeOrder, transition } from '../support/orders';
import { ThrowawayS3, tinyJpeg, TestPhoto, waitForProcessed } from '../support/photos';
import { AppProcess, startServing, waitFor } from '../support/processes';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MEDIA_BASE = 'http://media.test/media';
/** What the service promises for an account of up to 1,000 pets, with a worker running. */
const ERASED_WITHIN_MS = 60_000;

/** Rows of the account left in each table that holds accounts' data, read in PostgreSQL. */
async function rowsLeft(accountId: number): Promise<Record<string, number>> {
  return withDatabase(async (client) => {
    const count = async (statement: string) => Number((await client.query(statement, [accountId])).rows[0].count);
    return {
      api_keys: await count('SELECT count(*) FROM api_keys WHERE account_id = $1'),
      pets: await count('SELECT count(*) FROM pets WHERE lister_account_id = $1'),
      organizations: await count('SELECT count(*) FROM organizations WHERE account_id = $1'),
      saved_searches: await count('SELECT count(*) FROM saved_searches WHERE account_id = $1'),
      webhook_endpoints: await count('SELECT count(*) FROM webhook_endpoints WHERE account_id = $1'),
      messages: await count('SELECT count(*) FROM messages WHERE account_id = $1'),
      idempotency_keys: await count('SELECT count(*) FROM idempotency_keys WHERE account_id = $1'),
      saved_search_alerts: await count('SELECT count(*) FROM saved_search_alerts WHERE account_id = $1'),
      // Its pet events stay for the retention: they show the catalogue record only.
      events: await count(`SELECT count(*) FROM events WHERE account_id = $1 AND type NOT LIKE 'pet.%'`),
      open_orders: await count(
        `SELECT count(*) FROM orders WHERE $1 IN (adopter_account_id, lister_account_id) AND status IN ('placed', 'approved')`,
      ),
      application_forms: await count('SELECT count(*) FROM application_forms WHERE account_id = $1'),
      open_applications: await count(
        `SELECT count(*) FROM applications WHERE $1 IN (applicant_account_id, lister_account_id)
            AND status IN ('submitted', 'under_review', 'approved')`,
      ),
      email_notifications: await count('SELECT count(*) FROM email_notifications WHERE account_id = $1'),
      orders_with_its_words: await count(
        `SELECT count(*) FROM orders
          WHERE (adopter_account_id = $1 AND note IS NOT NULL) OR (lister_account_id = $1 AND return_reason IS NOT NULL)`,
      ),
    };
  });
}

const NOTHING_LEFT = Object.fromEntries(
  [
    'api_keys',
    'pets',
    'organizations',
    'saved_searches',
    'webhook_endpoints',
    'messages',
    'idempotency_keys',
    'saved_search_alerts',
    'events',
    'open_orders',
    'application_forms',
    'open_applications',
    'email_notifications',
    'orders_with_its_words',
  ].map((table) => [table, 0]),
);

async function accountRow(accountId: number): Promise<Json> {
  return withDatabase(
    async (client) =>
      (
        await client.query('SELECT email, email_canonical, deleted_at, erased_at FROM accounts WHERE id = $1', [
          accountId,
        ])
      ).rows[0],
  );
}

const erased = (accountId: number) =>
  waitFor(async () => (await accountRow(accountId)).erased_at !== null, ERASED_WITHIN_MS, 'the account to be erased');

describe.each(['filesystem', 's3'] as const)('DELETE /v1/account (%s storage)', (driver) => {
  let app: TestHttpApp;
  let messages: TestHttpApp;
  let otherApi: AppProcess & { baseUrl: string };
  let worker: AppProcess;
  let s3: ThrowawayS3 | undefined;
  let directory: string;

  const account = async () => {
    const created = await signUp(app.http);
    await app.app.get(AccountsService).setPlan(created.email, 'enterprise');
    return created;
  };
  const deleteAccount = (owner: TestAccount, body: object = { confirm: owner.email }) =>
    app.http.delete('/v1/account').set(owner.auth).send(body);
  /** Whether a rendition URL still answers from storage. */
  const served = async (url: string) => (await app.http.get(url.slice(MEDIA_BASE.length - '/media'.length))).status;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'account-deletion-'));
    if (driver === 's3') s3 = await new ThrowawayS3().create();
    const env = {
      PHOTO_STORAGE_DIR: directory,
      PHOTO_PUBLIC_BASE_URL: MEDIA_BASE,
      // Its sweep runs at the worker's start and not again here: the erasure removes the files itself.
      PHOTO_SWEEP_INTERVAL_MS: '3600000',
      ...s3?.env,
    };
    [app, messages] = await Promise.all([createApiApp({ env }), createMessagesApp()]);
    [otherApi, worker] = await Promise.all([startServing('api', env), startServing('worker', env)]);
  });
  afterAll(async () => {
    await Promise.all([app?.close(), messages?.close(), otherApi?.stop(), worker?.stop()]);
    await s3?.destroy();
    rmSync(directory, { recursive: true, force: true });
  });

  it('refuses at once every key on every process, frees the email, and erases what the account held', async () => {
    const leaving = await account();
    const adopter = await account();
    const otherLister = await account();
    await app.http.put('/v1/organization').set(leaving.auth).send({ name: 'Closing Shelter' }).expect(201);
    const pets = await createPets(app.http, leaving, 20);
    const photos: TestPhoto[] = [];
    for (const pet of pets.slice(0, 2)) {
      const accepted = await app.http
        .post(`/v1/pets/${pet.id}/photos`)
        .set(leaving.auth)
        .set('Content-Type', 'image/jpeg')
        .send(await tinyJpeg())
        .expect(202);
      photos.push(await waitForProcessed(app.http, leaving.auth, accepted.headers.location!));
    }
    const urls = photos.flatMap((photo) => Object.values(photo.urls!));
    for (const url of urls) expect(await served(url)).toBe(200);

    // Orders on both sides: one open on its pet, one delivered of its pet, one it placed with a note.
    const onItsPet = await placeOrder(app.http, adopter, pets[2]!.id);
    const delivered = await placeOrder(app.http, adopter, pets[3]!.id);
    await transition(app.http, leaving, delivered.id, 'approve').expect(200);
    await transition(app.http, leaving, delivered.id, 'deliver').expect(200);
    const othersPet = await createPet(app.http, otherLister);
    const itPlaced = (
      await app.http
        .post('/v1/store/orders')
        .set(leaving.auth)
        .send({ petId: othersPet.id, note: 'Call me at 555-0100.' })
    ).body as OrderBody;
    expect(itPlaced.status).toBe('placed');

    await app.http.post('/v1/saved-searches').set(leaving.auth).send({ query: 'categoryId=2' }).expect(201);
    await app.http
      .post('/v1/webhook-endpoints')
      .set(leaving.auth)
      .send({ url: 'https://shelter.example/hooks', events: ['order.cancelled'] })
      .expect(201);
    await messages.http.post('/messages').set(leaving.auth).send({ message: 'Closing down.' }).expect(202);
    await app.http
      .post('/v1/pets')
      .set(leaving.auth)
      .set('Idempotency-Key', 'last-pet')
      .send({ name: 'Last', categoryId: 1 });
    const spare = (await app.http.post('/v1/keys').set(leaving.auth).send({ name: 'spare' }).expect(201)).body;
    const keys = [leaving.key, spare.key as string];
    // Both processes hold both keys in their caches: the deletion has to reach the other one.
    for (const key of keys) {
      await app.http.get('/v1/account').set('Authorization', `Bearer ${key}`).expect(200);
      expect(
        (await fetch(`${otherApi.baseUrl}/v1/account`, { headers: { Authorization: `Bearer ${key}` } })).status,
      ).toBe(200);
    }

    await deleteAccount(leaving).expect(202);
    for (const key of keys) {
      const headers = { Authorization: `Bearer ${key}` };
      await app.http.get('/v1/account').set(headers).expect(401);
      expect((await fetch(`${otherApi.baseUrl}/v1/account`, { headers })).status).toBe(401);
      expect((await fetch(`${otherApi.baseUrl}/v1/pets`, { headers })).status).toBe(401);
    }
    const again = await signUp(app.http, leaving.email);
    expect(again.accountId).not.toBe(leaving.accountId);
    expect(await accountRow(leaving.accountId)).toMatchObject({ email: null, email_canonical: null, erased_at: null });

    await erased(leaving.accountId);
    expect(await rowsLeft(leaving.accountId)).toEqual(NOTHING_LEFT);
    expect(await accountRow(leaving.accountId)).toMatchObject({ email: null, deleted_at: expect.any(Date) });
    // Its photos' files are gone from storage, not left for the next sweep.
    for (const url of urls) expect(await served(url)).toBe(404);
    if (driver === 'filesystem') {
      const names = readdirSync(directory, { recursive: true, encoding: 'utf8' });
      for (const photo of photos) expect(names.filter((name) => name.includes(photo.id))).toEqual([]);
    }

    // What the others hold stays theirs, without the erased party's words.
    const seen = async (owner: TestAccount, order: OrderBody) =>
      (await app.http.get(`/v1/store/orders/${order.id}`).set(owner.auth).expect(200)).body as OrderBody;
    expect(await seen(adopter, onItsPet)).toMatchObject({ status: 'cancelled', cancellationReason: 'account_deleted' });
    expect(await seen(adopter, delivered)).toMatchObject({ status: 'delivered' });
    const keptByLister = await seen(otherLister, itPlaced);
    expect(keptByLister).toMatchObject({ status: 'cancelled', cancellationReason: 'account_deleted' });
    expect(keptByLister).not.toHaveProperty('note');
    expect((await app.http.get(`/v1/pets/${othersPet.id}`).set(otherLister.auth).expect(200)).body.status).toBe(
      'available',
    );
    for (const pet of pets) await app.http.get(`/v1/pets/${pet.id}`).set(adopter.auth).expect(404);
    const cancelledEvents = (await app.http.get('/v1/events?type=order.cancelled').set(adopter.auth).expect(200)).body;
    expect(cancelledEvents.map((event: Json) => event.data.object.id)).toContain(onItsPet.id);
  }, 180_000);

  it('erases an account of 1,000 pets within a minute', async () => {
    const shelter = await account();
    await createPets(app.http, shelter, 1_000);
    await deleteAccount(shelter).expect(202);
    await erased(shelter.accountId);
    expect(await rowsLeft(shelter.accountId)).toEqual(NOTHING_LEFT);
  }, 180_000);

  it('asks for the account’s email and a key with *: 400 validation_failed or 403, and changes nothing', async () => {
    const owner = await account();
    for (const body of [{ confirm: 'someone-else@example.com' }, {}, { confirm: 42 }]) {
      const refused = await deleteAccount(owner, body).expect(400);
      expect(refused.body).toMatchObject({ code: 'validation_failed', status: 400 });
    }
    const restricted = await app.http
      .post('/v1/keys')
      .set(owner.auth)
      .send({ name: 'keys only', scopes: ['keys:write', 'account:read'] })
      .expect(201);
    const publishable = await app.http
      .post('/v1/keys')
      .set(owner.auth)
      .send({ kind: 'publishable', allowedOrigins: ['https://shelter.example'] })
      .expect(201);
    for (const key of [restricted.body.key, publishable.body.key]) {
      const refused = await app.http
        .delete('/v1/account')
        .set('Authorization', `Bearer ${key}`)
        .send({ confirm: owner.email })
        .expect(403);
      expect(refused.body.code).toBe('insufficient_scope');
    }
    await app.http.get('/v1/account').set(owner.auth).expect(200);
    expect(await accountRow(owner.accountId)).toMatchObject({ email: owner.email, deleted_at: null });
    // Compared as sign-ups compare emails: the same address in capitals confirms it.
    await deleteAccount(owner, { confirm: owner.email.toUpperCase() }).expect(202);
    await app.http.get('/v1/account').set(owner.auth).expect(401);
  });
});
