import { createApiApp } from '../support/api-app';
import { Client } from 'pg';
import {
  MATCHER_LOCK_CLASS,
  MATCHER_PARTITIONS,
} from '../../libs/saved-searches/src/matching/saved-search-matching.repository';
import { otherSessions, withDatabase } from '../support/database';
import { createPet, signUp, TestAccount, TestPet } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { startWorker, WebhookReceiver } from '../support/messages';
import { AppProcess, waitFor } from '../support/processes';
import { TEST_DATABASE_URL } from '../support/test-env';
import { createEndpoint, emptyWebhooksQueue, verified, waitForDeliveries, WEBHOOK_TEST_ENV } from '../support/webhooks';

const ENV = { ...WEBHOOK_TEST_ENV, SAVED_SEARCH_MATCH_INTERVAL_MS: '50' };
/** Within 60 seconds. */
const ALERT_BOUND_MS = 60_000;

interface Alert {
  id: string;
  type: string;
  data: { object: { savedSearchId: string; pet: TestPet } };
}

/** Saved-search alerts, by a real worker: when a pet comes to match a saved search, and only then. */
describe('saved search alerts', () => {
  const receiver = new WebhookReceiver();
  let app: TestHttpApp;
  let worker: AppProcess | undefined;
  /** Lists the pets of every test: an account other than the searches' owners. */
  let lister: TestAccount;
  let receiverBase: string;

  const save = async (account: TestAccount, query: string): Promise<string> =>
    (await app.http.post('/v1/saved-searches').set(account.auth).send({ query }).expect(201)).body.id;
  const alerts = async (account: TestAccount): Promise<Alert[]> =>
    (
      (await app.http.get('/v1/events?type=saved_search.matched&limit=100').set(account.auth).expect(200))
        .body as Alert[]
    ).reverse();
  const alertsFor = async (account: TestAccount, pet: { id: number }) =>
    (await alerts(account)).filter((alert) => alert.data.object.pet.id === pet.id);
  const patch = async (pet: { id: number }, body: object): Promise<TestPet> =>
    (await app.http.patch(`/v1/pets/${pet.id}`).set(lister.auth).send(body).expect(200)).body;
  /**
   * Lists a pet that matches the account's sentinel search, and waits for its alert: the matcher takes
   * changes in their order, so every change before it has been matched by then.
   */
  const settled = async (account: TestAccount, sentinelPet: Record<string, unknown>) => {
    const sentinel = await createPet(app.http, lister, sentinelPet);
    await waitFor(
      async () => (await alertsFor(account, sentinel)).length > 0,
      ALERT_BOUND_MS,
      'the sentinel pet’s alert',
    );
  };

  beforeAll(async () => {
    await emptyWebhooksQueue();
    receiverBase = (await receiver.start()).replace(/\/hooks\/messages$/, '');
    app = await createApiApp({ env: ENV });
    worker = await startWorker(ENV);
    lister = await signUp(app.http);
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await app.close();
    await receiver.stop();
  });

  it('alerts once about a pet created matching, with the pet as its owner reads it, and not about others', async () => {
    const adopter = await signUp(app.http);
    const searchId = await save(adopter, 'categoryId=2&tag=calm&status=available');
    const ignored = await createPet(app.http, lister, { name: 'Other', categoryId: 1, tags: ['calm'] });
    const matching = await createPet(app.http, lister, { name: 'Whiskers', categoryId: 2, tags: ['Calm', 'small'] });

    await waitFor(async () => (await alertsFor(adopter, matching)).length > 0, ALERT_BOUND_MS, 'the alert');
    const read = (await app.http.get(`/v1/pets/${matching.id}`).set(adopter.auth).expect(200)).body;
    expect(await alerts(adopter)).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        type: 'saved_search.matched',
        createdAt: expect.any(String),
        data: { object: { savedSearchId: searchId, pet: read } },
      },
    ]);
    expect(await alertsFor(adopter, ignored)).toEqual([]);
  });

  it('alerts when a change makes a pet match, once while it keeps matching, and again after it stopped', async () => {
    const adopter = await signUp(app.http);
    await save(adopter, 'status=available&size=small&tag=shy');
    const pet = await createPet(app.http, lister, { name: 'Mouse', status: 'pending', size: 'small', tags: ['shy'] });
    const available = await patch(pet, { status: 'available' });
    // Still matching: no second alert.
    await patch(pet, { name: 'Mousy' });
    await patch(pet, { size: 'large' });
    const back = await patch(pet, { size: 'small' });
    await settled(adopter, { name: 'Sentinel', size: 'small', tags: ['shy'] });

    const seen = await alertsFor(adopter, pet);
    expect(seen.map((alert) => alert.data.object.pet)).toEqual([available, back]);
  });

  it('does not alert about a pet that matched before the search was saved, while it keeps matching', async () => {
    const adopter = await signUp(app.http);
    const pet = await createPet(app.http, lister, { name: 'Early', size: 'medium', tags: ['early-bird'] });
    await save(adopter, 'size=medium&tag=early-bird');
    // A change that keeps it matching: it did not come to match.
    await patch(pet, { name: 'Still early' });
    await settled(adopter, { size: 'medium', tags: ['early-bird'] });

    expect(await alertsFor(adopter, pet)).toEqual([]);
  });

  it('alerts about each transition of changes matched in one batch, by every filter a status or companion list makes', async () => {
    const adopter = await signUp(app.http);
    await save(adopter, 'status=available,pending&goodWith=dogs,cats&tag=batched');
    // The changes wait for a worker started after them: the matcher takes them in one batch.
    await worker!.stop('SIGKILL');
    const pet = await createPet(app.http, lister, { name: 'Batch', status: 'sold', tags: ['batched'] });
    const pending = await patch(pet, { status: 'pending', environment: { dogs: true, cats: true } });
    await patch(pet, { environment: { dogs: true, cats: false } });
    const back = await patch(pet, { environment: { dogs: true, cats: true } });
    await patch(pet, { status: 'sold' });
    const last = await patch(pet, { status: 'available' });
    worker = await startWorker(ENV);
    await settled(adopter, { tags: ['batched'], environment: { dogs: true, cats: true } });

    const seen = await alertsFor(adopter, pet);
    expect(seen.map((alert) => alert.data.object.pet)).toEqual([pending, back, last]);
  });

  it('matches q with listPets’ text rules and near within the radius', async () => {
    const adopter = await signUp(app.http);
    const searchId = await save(adopter, 'q=frohlich%20BEAGLE&near=52.52,13.405&radiusKm=20');
    const near = { latitude: 52.6, longitude: 13.5 };
    const words = await createPet(app.http, lister, {
      name: 'Fröhlich',
      breed: 'Beagle mix',
      location: near,
    });
    const far = await createPet(app.http, lister, {
      name: 'Fröhlich',
      breed: 'Beagle',
      location: { latitude: 48.14, longitude: 11.58 },
    });
    const otherWords = await createPet(app.http, lister, { name: 'Froh', breed: 'Beagle', location: near });
    await settled(adopter, { name: 'Frohlich', breed: 'beagle', location: near });

    expect(await alertsFor(adopter, words)).toHaveLength(1);
    expect(await alertsFor(adopter, far)).toEqual([]);
    expect(await alertsFor(adopter, otherWords)).toEqual([]);
    // What listPets finds for the same query, among these pets.
    const listed = (
      await app.http
        .get('/v1/pets?q=frohlich%20BEAGLE&near=52.52,13.405&radiusKm=20&limit=100&listedBy=me')
        .set(lister.auth)
        .expect(200)
    ).body as TestPet[];
    const ids = listed.map((pet) => pet.id);
    expect([words.id, far.id, otherWords.id].filter((id) => ids.includes(id))).toEqual([words.id]);
    // The search's point is stored as ll_to_earth gives it, the same doubles.
    const [stored] = await withDatabase(
      async (client) =>
        (
          await client.query<{ same: boolean }>(
            `SELECT near_origin::text = ll_to_earth(52.52, 13.405)::text AS same FROM saved_searches WHERE id = $1`,
            [searchId],
          )
        ).rows,
    );
    expect(stored).toEqual({ same: true });
  });

  it('never alerts about a pet its own account listed, nor for a deleted search', async () => {
    const adopter = await signUp(app.http);
    await save(adopter, 'tag=own-check');
    const deleted = await save(adopter, 'tag=deleted-check');
    await app.http.delete(`/v1/saved-searches/${deleted}`).set(adopter.auth).expect(204);
    const own = await createPet(app.http, adopter, { tags: ['own-check'] });
    const afterDeletion = await createPet(app.http, lister, { tags: ['deleted-check'] });
    await settled(adopter, { tags: ['own-check'] });

    expect(await alertsFor(adopter, own)).toEqual([]);
    expect(await alertsFor(adopter, afterDeletion)).toEqual([]);
  });

  it('forgets a deleted pet, and judges nothing of its removal', async () => {
    const adopter = await signUp(app.http);
    await save(adopter, 'tag=forgotten');
    const pet = await createPet(app.http, lister, { tags: ['forgotten'] });
    await app.http.delete(`/v1/pets/${pet.id}`).set(lister.auth).expect(204);
    await settled(adopter, { tags: ['forgotten'] });

    expect(await alertsFor(adopter, pet)).toHaveLength(1);
    const states = await withDatabase(
      async (client) =>
        (await client.query('SELECT pet_id FROM saved_search_pet_states WHERE pet_id = $1', [pet.id])).rows,
    );
    expect(states).toEqual([]);
  });

  it('removes a search once the batches that read it have committed: no alert of it follows its removal', async () => {
    const adopter = await signUp(app.http);
    const searchId = await save(adopter, 'tag=removed-mid-batch');
    await save(adopter, 'tag=removal-sentinel');
    const holder = new Client({ connectionString: TEST_DATABASE_URL });
    await holder.connect();
    try {
      // The batch stalls at its statement that finds and records the alerts, which writes to the table held.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE saved_search_alerts IN SHARE MODE');
      const pet = await createPet(app.http, lister, { tags: ['removed-mid-batch'] });
      await waitFor(
        async () => (await otherSessions(`wait_event_type = 'Lock' AND query LIKE 'WITH states AS MATERIALIZED%'`)) > 0,
        ALERT_BOUND_MS,
        'the batch to stall at its alerts',
      );
      let removed = false;
      const removal = app.http
        .delete(`/v1/saved-searches/${searchId}`)
        .set(adopter.auth)
        .then((response) => {
          removed = true;
          return response.status;
        });
      // The removal waits for the stalled batch's partition lock.
      await waitFor(
        async () =>
          (await withDatabase(
            async (client) =>
              (
                await client.query<{ n: string }>(
                  `SELECT count(*) AS n FROM pg_locks
                    WHERE database = (SELECT oid FROM pg_database WHERE datname = current_database())
                      AND locktype = 'advisory' AND classid = $1 AND objid = $2 AND NOT granted`,
                  [MATCHER_LOCK_CLASS, pet.id % MATCHER_PARTITIONS],
                )
              ).rows[0]!.n,
          )) !== '0',
        ALERT_BOUND_MS,
        'the removal to wait for the batch',
      );
      expect(removed).toBe(false);
      await holder.query('COMMIT');

      expect(await removal).toBe(204);
      expect(await alertsFor(adopter, pet)).toHaveLength(1);
      // Removed, the search alerts no more, even about a pet that stops matching it and matches again.
      await patch(pet, { tags: ['elsewhere'] });
      await patch(pet, { tags: ['removed-mid-batch'] });
      await settled(adopter, { tags: ['removal-sentinel'] });
      expect(await alertsFor(adopter, pet)).toHaveLength(1);
    } finally {
      await holder.end();
    }
  });

  it('merges the alerts stored apart into the feed in the order they were recorded, across pages', async () => {
    const adopter = await signUp(app.http);
    await save(adopter, 'tag=feed-merge');
    const first = await createPet(app.http, lister, { tags: ['feed-merge'] });
    await waitFor(async () => (await alertsFor(adopter, first)).length > 0, ALERT_BOUND_MS, 'the first alert');
    // The adopter's own pet: a pet.created event in its feed between the two alerts, and no alert.
    const own = await createPet(app.http, adopter, { name: 'Own', tags: ['feed-merge'] });
    const second = await createPet(app.http, lister, { tags: ['feed-merge'] });
    await waitFor(async () => (await alertsFor(adopter, second)).length > 0, ALERT_BOUND_MS, 'the second alert');

    const walked: Array<{ id: string; type: string; data: { object: { pet?: TestPet; id?: number } } }> = [];
    for (let path: string | undefined = '/v1/events?limit=1'; path;) {
      const response: { body: typeof walked; headers: Record<string, string> } = await app.http
        .get(path)
        .set(adopter.auth)
        .expect(200);
      walked.push(...response.body);
      path = /<([^>]+)>; rel="next"/.exec(response.headers.link ?? '')?.[1]?.replace(/^.*?(\/v1\/)/, '/v1/');
    }
    expect(walked.map((event) => [event.type, (event.data.object.pet ?? event.data.object).id])).toEqual([
      ['saved_search.matched', second.id],
      ['pet.created', own.id],
      ['saved_search.matched', first.id],
    ]);
    const [pets] = (await app.http.get('/v1/events?type=pet.created').set(adopter.auth).expect(200)).body;
    expect(pets.id).toBe(walked[1]!.id);
    for (const event of walked)
      expect((await app.http.get(`/v1/events/${event.id}`).set(adopter.auth).expect(200)).body).toEqual(event);
  });

  it('delivers the alert to webhook endpoints subscribed to saved_search.matched', async () => {
    const adopter = await signUp(app.http);
    const endpoint = await createEndpoint(app.http, adopter, `${receiverBase}/${adopter.accountId}`, [
      'saved_search.matched',
    ]);
    await save(adopter, 'tag=hooked-alert');
    const pet = await createPet(app.http, lister, { tags: ['hooked-alert'] });
    await waitFor(async () => (await alertsFor(adopter, pet)).length > 0, ALERT_BOUND_MS, 'the alert');
    const [alert] = await alertsFor(adopter, pet);
    const [delivery] = await waitForDeliveries(receiver, alert!.id, 1);
    expect(verified(delivery!, endpoint.secret)).toEqual(alert);
  });

  it('stores an alert for an account without a subscribed endpoint apart, redelivered on demand; one with as due', async () => {
    const unsubscribed = await signUp(app.http);
    const subscribed = await signUp(app.http);
    const otherTypes = await createEndpoint(app.http, unsubscribed, `${receiverBase}/${unsubscribed.accountId}`, [
      'pet.created',
    ]);
    await createEndpoint(app.http, subscribed, `${receiverBase}/${subscribed.accountId}`, ['*']);
    await save(unsubscribed, 'tag=dispatch-check');
    await save(subscribed, 'tag=dispatch-check');
    const pet = await createPet(app.http, lister, { tags: ['dispatch-check'] });
    await settled(unsubscribed, { tags: ['dispatch-check'] });
    const [quiet] = await alertsFor(unsubscribed, pet);
    await waitFor(async () => (await alertsFor(subscribed, pet)).length > 0, ALERT_BOUND_MS, 'the alert');
    const [delivered] = await alertsFor(subscribed, pet);
    await waitForDeliveries(receiver, delivered!.id, 1);

    // The second is an event the dispatcher claimed; the first a row of saved_search_alerts, never claimed.
    const stored = await withDatabase(
      async (client) =>
        (
          await client.query<{ id: string; table: string; at_insert: boolean | null }>(
            `SELECT id, 'events' AS table, dispatched_at = created_at AS at_insert FROM events WHERE id = ANY($1)
             UNION ALL
             SELECT id, 'saved_search_alerts', null
               FROM (SELECT 'evt_alert' || lpad(seq::text, 19, '0') AS id FROM saved_search_alerts) AS alert
              WHERE id = ANY($1)`,
            [[quiet!.id, delivered!.id]],
          )
        ).rows,
    );
    expect(quiet!.id).toMatch(/^evt_alert\d{19}$/);
    // Stored apart or not, an alert reads the same: its pet, and its own search.
    expect(quiet!.data.object).toEqual({ ...delivered!.data.object, savedSearchId: quiet!.data.object.savedSearchId });
    expect(stored).toHaveLength(2);
    expect(stored).toEqual(
      expect.arrayContaining([
        { id: quiet!.id, table: 'saved_search_alerts', at_insert: null },
        { id: delivered!.id, table: 'events', at_insert: false },
      ]),
    );
    expect((await app.http.get(`/v1/events/${quiet!.id}`).set(unsubscribed.auth).expect(200)).body).toEqual(quiet);
    await app.http.get(`/v1/events/${quiet!.id}`).set(subscribed.auth).expect(404);
    // An alert's form past any seq is no alert's.
    await app.http.get('/v1/events/evt_alert9999999999999999999').set(unsubscribed.auth).expect(404);

    // Redelivered, it becomes an event of the same id, sent as the feed shows it, and stays in the feed once.
    await app.http
      .post(`/v1/webhook-endpoints/${otherTypes.id}/redeliveries`)
      .set(unsubscribed.auth)
      .send({ eventId: quiet!.id })
      .expect(202);
    const [redelivered] = await waitForDeliveries(receiver, quiet!.id, 1);
    expect(verified(redelivered!, otherTypes.secret)).toEqual(quiet);
    expect(await alertsFor(unsubscribed, pet)).toEqual([quiet]);
    expect((await app.http.get(`/v1/events/${quiet!.id}`).set(unsubscribed.auth).expect(200)).body).toEqual(quiet);
  });
});
