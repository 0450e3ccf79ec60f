import type { Server } from 'node:http';
import { AccountsService } from '@app/accounts';
import { PetsService } from '@app/pets';
import { LastUsedRecorder } from '../../libs/accounts/src/api-keys/last-used-recorder';
import { MessagesRepository } from '../../libs/messaging/src/messages.repository';
import { MessagesService } from '../../libs/messaging/src/messages.service';
import { createApiApp } from '../support/api-app';
import {
  deadlocksSoFar,
  JOIN_BY_LIST,
  meetBehindHeldRow,
  SCAN_BY_HEAP,
  SCAN_BY_ID,
  testDatabasePlanning,
  withDatabase,
} from '../support/database';
import { createPet, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { createAccount, createMessagesApp, emptyMessagesQueue, startWorker, storedMessage } from '../support/messages';
import { AppProcess, waitFor } from '../support/processes';
import { together } from '../support/rate-limiting';

/** An app whose connections plan with `settings`, so that each statement visits rows in a known order. */
function appPlanning(create: typeof createMessagesApp, settings: string[]): Promise<TestHttpApp> {
  return create({ env: { DATABASE_URL: testDatabasePlanning(settings) } });
}
const messagesAppPlanning = (settings: string[]) => appPlanning(createMessagesApp, settings);

describe('batched updates of shared rows', () => {
  it('record the uses of the same keys from two processes, in opposite orders, without a deadlock', async () => {
    const deadlocksBefore = await deadlocksSoFar();
    const [one, other] = [await messagesAppPlanning(JOIN_BY_LIST), await messagesAppPlanning(JOIN_BY_LIST)];
    try {
      const keys = [(await createAccount(one)).keyId, (await createAccount(one)).keyId].sort((a, b) => a - b);
      // Each process lists its keys in the order they were used, and its UPDATE visits them in that order.
      const flushUses = (app: TestHttpApp, order: number[]) => () => {
        const recorder = app.app.get(LastUsedRecorder);
        for (const keyId of order) recorder.record(keyId);
        return recorder.flush();
      };
      await meetBehindHeldRow('api_keys', { id: keys[0] }, flushUses(one, keys), flushUses(other, [...keys].reverse()));
    } finally {
      await one.close();
      await other.close();
    }
    // A flush that fails keeps its uses for the next one, so only PostgreSQL's count tells.
    expect(await deadlocksSoFar()).toBe(deadlocksBefore);
  });

  // The worker's batches (claiming messages for sending, marking them sent) against the messages app's
  // `enqueued_at` batch, each over the same two rows from the status its transition leaves.
  it.each([
    { batch: 'claim them for sending', from: 'queued', to: 'sending', run: 'startSending' },
    { batch: 'mark them sent', from: 'sending', to: 'sent', run: 'markSent' },
  ] as const)(
    'record messages enqueued and $batch over the same rows, visited in opposite orders, without a deadlock',
    async ({ from, to, run }) => {
      const byId = await messagesAppPlanning(SCAN_BY_ID);
      const byHeap = await messagesAppPlanning(SCAN_BY_HEAP);
      try {
        const account = await createAccount(byId);
        // The higher id is stored first, so a heap scan meets it first and an index scan last.
        const [low, high] = [`msg_lock_${Date.now()}_a`, `msg_lock_${Date.now()}_b`];
        await withDatabase((client) =>
          client.query(
            `INSERT INTO messages (id, account_id, message, status) VALUES ($1, $3, 'x', $4), ($2, $3, 'x', $4)`,
            [high, low, account.accountId, from],
          ),
        );

        // Locking as their scans go, the worker's batch would hold the higher row while it waits for the
        // lower one, and the enqueued batch, once given the lower row, would wait for the higher: a deadlock.
        const recorder = byId.app.get(MessagesRepository);
        const messages = byHeap.app.get(MessagesService);
        await meetBehindHeldRow(
          'messages',
          { id: low },
          () => {
            for (const id of [low, high]) recorder.recordEnqueued(id);
            return recorder.flushEnqueued();
          },
          () => Promise.all([low, high].map((id) => messages[run](id))),
        );

        for (const id of [low, high]) {
          expect(await storedMessage(id)).toMatchObject({ status: to, enqueued_at: expect.any(Date) });
        }
      } finally {
        await byId.close();
        await byHeap.close();
      }
    },
  );

  it('change the same pets from two processes, in opposite orders, without a deadlock', async () => {
    const deadlocksBefore = await deadlocksSoFar();
    const [one, other] = [await appPlanning(createApiApp, JOIN_BY_LIST), await appPlanning(createApiApp, JOIN_BY_LIST)];
    try {
      const lister = await signUp(one.http);
      const pets = [(await createPet(one.http, lister)).id, (await createPet(one.http, lister)).id].sort(
        (a, b) => a - b,
      );
      // Each process changes both pets in one batch, and its UPDATE visits them in the order given. Locking
      // as it goes, the second would hold the higher pet while the first, given the lower one, waits for it.
      const changeAll = (app: TestHttpApp, order: number[], name: string) => () =>
        Promise.all(
          order.map((petId) =>
            app.app.get(PetsService).update({ petId, listerAccountId: lister.accountId, patch: { name } }),
          ),
        );
      await meetBehindHeldRow(
        'pets',
        { id: pets[0] },
        changeAll(one, pets, 'One'),
        changeAll(other, [...pets].reverse(), 'Other'),
      );

      // The change clock made the second batch wait for the first one's commit, before it locked any pet.
      const names = await withDatabase(
        async (client) => (await client.query('SELECT name FROM pets WHERE id = ANY($1)', [pets])).rows,
      );
      expect(names).toEqual([{ name: 'Other' }, { name: 'Other' }]);
    } finally {
      await one.close();
      await other.close();
    }
    expect(await deadlocksSoFar()).toBe(deadlocksBefore);
  });
});

describe('a burst of messages delivered by a worker', () => {
  const BURST = 1000;
  let app: TestHttpApp;
  let account: TestAccount;
  let worker: AppProcess;
  let deadlocksBefore: number;
  let stopped: Promise<unknown> | undefined;
  const stop = () => (stopped ??= Promise.all([worker?.stop('SIGKILL'), app?.close()]));

  beforeAll(async () => {
    await emptyMessagesQueue();
    deadlocksBefore = await deadlocksSoFar();
    app = await createMessagesApp();
    // A backlog for the whole burst: on a loaded machine the app accepts connections slower than they come,
    // and past Node's default backlog (511) a connection may be reset.
    const server = app.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: BURST }, resolve));
    account = await createAccount(app);
    await app.app
      .get(AccountsService)
      .setPlan(account.email, 'enterprise', { perMinute: 1_000_000, perDay: 10_000_000 });
    worker = await startWorker();
  });
  afterAll(stop);

  it('records every message enqueued and sent without a deadlock in PostgreSQL', async () => {
    const responses = await together(BURST, (i) =>
      app.http
        .post('/messages')
        .set(account.auth)
        .send({ message: `burst ${i}` }),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(BURST).fill(202));
    const ids = responses.map((response) => (response.body as { id: string }).id);
    await waitFor(
      async () =>
        await withDatabase(async (client) => {
          const { rows } = await client.query<{ done: string }>(
            `SELECT count(*) AS done FROM messages WHERE id = ANY($1) AND status = 'sent' AND enqueued_at IS NOT NULL`,
            [ids],
          );
          return Number(rows[0]!.done) === BURST;
        }),
      60000,
      `all ${BURST} messages to be recorded enqueued and sent`,
    );
    await stop();
    expect(await deadlocksSoFar()).toBe(deadlocksBefore);
  });
});
