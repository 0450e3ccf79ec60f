import { AccountsService } from '@app/accounts';
import { ReadReplicas } from '@app/database';
import { createApiApp } from '../support/api-app';
import { suiteDatabase, SuiteDatabase, withDatabase } from '../support/database';
import { createPet, signUp, TestAccount, TestPet } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { walkPages } from '../support/pets';
import { freePort, waitFor } from '../support/processes';
import { TEST_DATABASE_REPLICA_URL } from '../support/test-env';

if (!TEST_DATABASE_REPLICA_URL) {
  console.warn(
    'SKIPPED: the read-replica suite needs TEST_DATABASE_REPLICA_URL, a streaming replica (.ci/run starts one).',
  );
}

/** Statements on the replica itself (its server's address, `TEST_DATABASE_REPLICA_URL`). */
const onReplica = <T>(statement: string) =>
  withDatabase(
    async (client) => (await client.query<{ value: T }>(`SELECT ${statement} AS value`)).rows[0]!.value,
    TEST_DATABASE_REPLICA_URL,
  );

/** Operations: read replicas. A replica whose replay is paused shows where each read went. */
(TEST_DATABASE_REPLICA_URL ? describe : describe.skip)('reads on a lagging read replica', () => {
  let database: SuiteDatabase;
  let app: TestHttpApp;
  let writer: TestAccount;
  let reader: TestAccount;
  let before: TestPet[];
  let lagging: TestPet;

  const ids = (response: { body: Array<{ id: number }> }) => response.body.map((pet) => pet.id);
  const list = (account: TestAccount, path = '/v1/pets?limit=100') => app.http.get(path).set(account.auth).expect(200);

  beforeAll(async () => {
    database = await suiteDatabase('read_replicas');
    // The bound well above the suite's length, so that the paused replica keeps serving throughout.
    app = await createApiApp({ env: { DATABASE_URL: database.url, DATABASE_REPLICA_MAX_LAG_MS: '600000' } });
    [writer, reader] = [await signUp(app.http), await signUp(app.http)];
    // On the Business plan: waiting for the replica takes more reads than a Free account's minute allows.
    for (const account of [writer, reader]) await app.app.get(AccountsService).setPlan(account.email, 'business');
    before = [];
    for (let i = 0; i < 3; i++) before.push(await createPet(app.http, writer, { name: `Replayed ${i}` }));
    const replicas = app.app.get(ReadReplicas);
    // The replica has replayed them, and the app counts it caught up (its first lagging read starts the polls).
    await waitFor(
      async () => (await list(reader)).body.length === before.length && replicas.pick() !== undefined,
      30000,
      'the replica to replay the first pets and the app to count it caught up',
    );
    await onReplica('pg_wal_replay_pause()');
    await waitFor(
      async () => (await onReplica<string>('pg_get_wal_replay_pause_state()')) === 'paused',
      10000,
      'the replica to pause its replay',
    );
    lagging = await createPet(app.http, writer, { name: 'Not yet replayed' });
  }, 60000);

  afterAll(async () => {
    await onReplica('pg_wal_replay_resume()');
    await app?.close();
    await database?.drop();
  });

  it('answers another account’s search from the replica, without the pet it has not replayed', async () => {
    expect(ids(await list(reader))).toEqual(before.map((pet) => pet.id));
    const inventory = await app.http.get('/v1/store/inventory').set(reader.auth).expect(200);
    expect(inventory.body).toMatchObject({ available: before.length });
  });

  it('answers the account that made the change from the primary: it reads its own writes', async () => {
    expect(ids(await list(writer))).toEqual([...before, lagging].map((pet) => pet.id));
    const inventory = await app.http.get('/v1/store/inventory').set(writer.auth).expect(200);
    expect(inventory.body).toMatchObject({ available: before.length + 1 });
  });

  it('reads a walk’s next pages on the primary: a walk begun on the replica skips and repeats no pet', async () => {
    const walk = await walkPages(app, reader, '/v1/pets?limit=2');
    expect(walk.pages).toBeGreaterThan(1);
    expect(walk.seen).toEqual([...before, lagging].map((pet) => pet.id));
  });

  it('sends the reads to the primary while a replica does not answer', async () => {
    const unreachable = new URL(`postgres://postgres@127.0.0.1:${await freePort()}`);
    unreachable.pathname = new URL(database.url).pathname;
    const alone = await createApiApp({
      env: { DATABASE_URL: database.url, DATABASE_REPLICA_URLS: unreachable.toString() },
    });
    try {
      for (let i = 0; i < 3; i++) {
        expect(ids(await alone.http.get('/v1/pets?limit=100').set(reader.auth).expect(200))).toEqual(
          [...before, lagging].map((pet) => pet.id),
        );
      }
    } finally {
      await alone.close();
    }
  });

  it('shows the pet to everyone once the replica replays again', async () => {
    await onReplica('pg_wal_replay_resume()');
    await waitFor(async () => ids(await list(reader)).includes(lagging.id), 30000, 'the replica to replay the pet');
  });
});
