import { AccountsService } from '@app/accounts';
import { LastUsedRecorder } from '../libs/accounts/src/api-keys/last-used-recorder';
import { MessagesRepository } from '../libs/messaging/src/messages.repository';
import { MessagesService } from '../libs/messaging/src/messages.service';
import {
  deadlocksSoFar,
  JOIN_BY_LIST,
  meetBehindHeldRow,
  SCAN_BY_HEAP,
  SCAN_BY_ID,
  testDatabasePlanning,
  withDatabase,
} from './support/database';
import type { TestAccount } from './support/factories';
import type { TestHttpApp } from './support/http-app';
import { createAccount, createMessagesApp, emptyMessagesQueue, startWorker, storedMessage } from './support/messages';
import { AppProcess, waitFor } from './support/processes';
import { together } from './support/rate-limiting';

/** A messages app whose connections plan with `settings`, so that each statement visits rows in a known order. */
function messagesAppPlanning(settings: string[]): Promise<TestHttpApp> {
  return createMessagesApp({ env: { DATABASE_URL: testDatabasePlanning(settings) } });
}

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

  it('record messages enqueued and mark them sent over the same rows, visited in opposite orders, without a deadlock', async () => {
    const byId = await messagesAppPlanning(SCAN_BY_ID);
    const byHeap = await messagesAppPlanning(SCAN_BY_HEAP);
    try {
      const account = await createAccount(byId);
      // The higher id is stored first, so a heap scan meets it first and an index scan last.
      const [low, high] = [`msg_lock_${Date.now()}_a`, `msg_lock_${Date.now()}_b`];
      await withDatabase((client) =>
        client.query(
          `INSERT INTO messages (id, account_id, message, status) VALUES ($1, $3, 'x', 'sending'), ($2, $3, 'x', 'sending')`,
          [high, low, account.accountId],
        ),
      );

      // Locking as their scans go, the sent batch would hold the higher row while it waits for the lower
      // one, and the enqueued batch, once given the lower row, would wait for the higher: a deadlock.
      const recorder = byId.app.get(MessagesRepository);
      await meetBehindHeldRow(
        'messages',
        { id: low },
        () => {
          for (const id of [low, high]) recorder.recordEnqueued(id);
          return recorder.flushEnqueued();
        },
        () => Promise.all([low, high].map((id) => byHeap.app.get(MessagesService).markSent(id))),
      );

      for (const id of [low, high]) {
        expect(await storedMessage(id)).toMatchObject({ status: 'sent', enqueued_at: expect.any(Date) });
      }
    } finally {
      await byId.close();
      await byHeap.close();
    }
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
