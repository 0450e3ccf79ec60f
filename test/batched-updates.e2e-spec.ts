import { AccountsService } from '@app/accounts';
import { EnqueuedRecorder } from '../libs/messaging/src/enqueued-recorder';
import { MessagesService } from '../libs/messaging/src/messages.service';
import { otherSessions, statisticsOnceAlone, withDatabase } from './support/database';
import type { TestAccount } from './support/factories';
import type { TestHttpApp } from './support/http-app';
import { createAccount, createMessagesApp, emptyMessagesQueue, startWorker, storedMessage } from './support/messages';
import { AppProcess, waitFor } from './support/processes';
import { together } from './support/rate-limiting';
import { TEST_DATABASE_URL } from './support/test-env';

/** A messages app whose connections plan every scan as told, so that each statement visits rows in a known order. */
function messagesAppScanning(order: 'by id' | 'by heap'): Promise<TestHttpApp> {
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set(
    'options',
    order === 'by id'
      ? '-c enable_seqscan=off -c enable_bitmapscan=off'
      : '-c enable_indexscan=off -c enable_indexonlyscan=off -c enable_bitmapscan=off',
  );
  return createMessagesApp({ env: { DATABASE_URL: url.toString() } });
}

/** Deadlocks PostgreSQL has counted in the test database. */
function deadlocksSoFar(): Promise<number> {
  return statisticsOnceAlone(async (client) => {
    const { rows } = await client.query<{ deadlocks: string }>(
      'SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(rows[0]!.deadlocks);
  });
}

const waitingForLocks = () => otherSessions(`wait_event_type = 'Lock'`);

describe('batched updates of shared rows', () => {
  it('record messages enqueued and mark them sent over the same rows, visited in opposite orders, without a deadlock', async () => {
    const byId = await messagesAppScanning('by id');
    const byHeap = await messagesAppScanning('by heap');
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

      await withDatabase(async (holder) => {
        // Both batches queue behind a transaction that holds the lower row. Locking as their scans go, the
        // sent batch would hold the higher row while waiting for the lower one, and the enqueued batch,
        // once given the lower row, would wait for the higher: a deadlock, and one batch aborted.
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM messages WHERE id = $1 FOR UPDATE', [low]);
        const recorder = byId.app.get(EnqueuedRecorder);
        for (const id of [low, high]) recorder.record(id);
        const recorded = recorder.flush();
        await waitFor(
          async () => (await waitingForLocks()) === 1,
          5000,
          'the enqueued batch to wait for the lower row',
        );
        const sent = Promise.all([low, high].map((id) => byHeap.app.get(MessagesService).markSent(id)));
        await waitFor(async () => (await waitingForLocks()) === 2, 5000, 'the sent batch to wait too');
        await holder.query('COMMIT');
        await Promise.all([recorded, sent]);
      });

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
