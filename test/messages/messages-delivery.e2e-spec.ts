import { createHmac } from 'node:crypto';
import { WEBHOOK_USER_AGENT } from '@app/events';
import { MESSAGES_QUEUE } from '@app/messaging';
import type { TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import {
  createAccount,
  createMessagesApp,
  Delivery,
  emptyMessagesQueue,
  startWorker,
  storedMessage,
  waitForEnqueued,
  waitForStatus,
  WebhookReceiver,
} from '../support/messages';
import { AppProcess, freePort, waitFor } from '../support/processes';
import { TcpProxy } from '../../bench/support/tcp-proxy';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../support/test-env';
import { testQueue } from '../support/redis';
import { describeOnOneRedis } from '../support/redis-suites';

const SECRET = 'webhook-secret-for-the-e2e-tests';
/** Shared by the messages app (job options) and the workers: short enough for tests, same semantics. */
const DELIVERY_ENV = {
  MESSAGES_MAX_ATTEMPTS: '3',
  MESSAGES_BACKOFF_MS: '50',
  MESSAGES_RECONCILE_INTERVAL_MS: '300',
  WORKER_LOCK_DURATION_MS: '1000',
};

const signatureOf = (delivery: Delivery) =>
  `sha256=${createHmac('sha256', SECRET).update(Buffer.from(delivery.body, 'utf8')).digest('hex')}`;
const messageIdOf = (delivery: Delivery) => (JSON.parse(delivery.body) as { id: string }).id;

describe('message delivery by real worker processes (webhook transport)', () => {
  const receiver = new WebhookReceiver();
  let app: TestHttpApp;
  let account: TestAccount;
  let workerEnv: Record<string, string>;
  let worker: AppProcess | undefined;

  const send = async (message: string, via: TestHttpApp = app, auth: Record<string, string> = account.auth) =>
    (await via.http.post('/messages').set(auth).send({ message }).expect(202)).body as { id: string };
  /** Answers each delivery by how many deliveries of that message the receiver has had. */
  const answerBy = (statusFor: (nth: number) => number | undefined) => {
    receiver.answer = (delivery, response) => {
      const status = statusFor(receiver.of(messageIdOf(delivery)).length);
      if (status !== undefined) response.writeHead(status).end();
    };
  };

  beforeAll(async () => {
    await emptyMessagesQueue();
    const url = await receiver.start();
    workerEnv = {
      ...DELIVERY_ENV,
      MESSAGES_TRANSPORT: 'webhook',
      MESSAGES_WEBHOOK_URL: url,
      MESSAGES_WEBHOOK_SECRET: SECRET,
      MESSAGES_WEBHOOK_TIMEOUT_MS: '10000',
      // Its shutdown line tells when a SIGTERM was taken.
      LOG_LEVEL: 'info',
    };
    app = await createMessagesApp({ env: DELIVERY_ENV });
    account = await createAccount(app);
  });
  beforeEach(async () => {
    answerBy(() => 204);
    worker ??= await startWorker(workerEnv);
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await app.close();
    await receiver.stop();
  });

  it('POSTs the Message signed with HMAC-SHA256 of the exact body, with its id in X-Message-Id', async () => {
    const accepted = await send('Rex has found a home! ✓');
    await waitForStatus(accepted.id, 'sent');
    const [delivery, ...more] = receiver.of(accepted.id);
    expect(more).toHaveLength(0);
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.headers['x-signature']).toBe(signatureOf(delivery!));
    expect(JSON.parse(delivery!.body)).toEqual({ ...accepted, status: 'sending', attempts: 1 });
    expect(delivery!.headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
  });

  it('retries with backoff: a receiver answering 500 twice, then 200, ends sent after three attempts', async () => {
    answerBy((nth) => (nth <= 2 ? 500 : 200));
    const accepted = await send('third time lucky');
    const stored = await waitForStatus(accepted.id, 'sent');
    expect(stored).toMatchObject({ attempts: 3, last_error: 'webhook answered 500', failed_at: null });
    // The client sees when it was sent, after how many attempts, and why the last failed one failed.
    const shown = await app.http.get(`/messages/${accepted.id}`).set(account.auth).expect(200);
    expect(shown.body).toEqual({
      ...accepted,
      status: 'sent',
      attempts: 3,
      sentAt: stored.sent_at!.toISOString(),
      lastError: 'webhook answered 500',
    });
    const listed = await app.http.get('/messages?limit=1').set(account.auth).expect(200);
    expect(listed.body).toEqual([shown.body]);
    const deliveries = receiver.of(accepted.id);
    expect(deliveries).toHaveLength(3);
    for (const delivery of deliveries) expect(delivery.headers['x-signature']).toBe(signatureOf(delivery));
  });

  it('gives up after MESSAGES_MAX_ATTEMPTS: a receiver that always fails leaves it failed, with the error', async () => {
    answerBy(() => 503);
    const accepted = await send('never arrives');
    const stored = await waitForStatus(accepted.id, 'failed');
    expect(stored).toMatchObject({ attempts: 3, last_error: 'webhook answered 503', sent_at: null });
    expect(stored.failed_at).toBeInstanceOf(Date);
    expect(receiver.of(accepted.id)).toHaveLength(3);
    const current = await app.http.get(`/messages/${accepted.id}`).set(account.auth).expect(200);
    expect(current.body).toMatchObject({
      status: 'failed',
      attempts: 3,
      sentAt: null,
      lastError: 'webhook answered 503',
    });
  });

  it('finishes the running delivery on SIGTERM, then exits', async () => {
    let answer: (() => void) | undefined;
    receiver.answer = (_delivery, response) => (answer = () => response.writeHead(200).end());
    const accepted = await send('deliver before you go');
    await waitFor(async () => answer !== undefined, 10000, 'the delivery to start');
    const stopping = worker!.stop('SIGTERM');
    await waitFor(
      async () => worker!.output().includes('SIGTERM received: finishing running jobs'),
      10000,
      'the worker to take the SIGTERM',
    );
    answer!();
    await stopping;
    // What the worker printed says why, should it not exit cleanly.
    const { exitCode } = worker!.child;
    if (exitCode !== 0) throw new Error(`the worker exited ${exitCode}:\n${worker!.output()}`);
    worker = undefined;
    expect(await storedMessage(accepted.id)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(receiver.of(accepted.id)).toHaveLength(1);
  });

  it('recovers the job of a killed worker: the message ends sent, every delivery with the same X-Message-Id', async () => {
    answerBy((nth) => (nth === 1 ? undefined : 204));
    const accepted = await send('survives a crash');
    await waitFor(async () => receiver.of(accepted.id).length === 1, 10000, 'the first delivery');
    await worker!.stop('SIGKILL');
    worker = await startWorker(workerEnv);

    const stored = await waitForStatus(accepted.id, 'sent');
    expect(stored.attempts).toBe(2);
    const deliveries = receiver.deliveries.filter((delivery) => messageIdOf(delivery) === accepted.id);
    expect(deliveries).toHaveLength(2);
    for (const delivery of deliveries) {
      expect(delivery.headers['x-message-id']).toBe(accepted.id);
      expect(delivery.headers['x-signature']).toBe(signatureOf(delivery));
    }
  });

  it('waits out a PostgreSQL outage at the worker without using up delivery attempts', async () => {
    const proxy = new TcpProxy(Number(new URL(TEST_DATABASE_URL).port || 5432));
    const viaProxy = new URL(TEST_DATABASE_URL);
    viaProxy.port = String(await proxy.start());
    const queue = testQueue(MESSAGES_QUEUE);
    await worker!.stop();
    worker = await startWorker({ ...workerEnv, DATABASE_URL: viaProxy.toString() });
    try {
      await proxy.cut();
      const accepted = await send('kept through a database outage');
      // More runs than MESSAGES_MAX_ATTEMPTS, and still no attempt used up.
      await waitFor(async () => ((await queue.getJob(accepted.id))?.attemptsStarted ?? 0) > 4, 10000, 'runs');
      expect((await queue.getJob(accepted.id))!.attemptsMade).toBe(0);

      await proxy.restore();
      expect(await waitForStatus(accepted.id, 'sent')).toMatchObject({ attempts: 1, last_error: null });
      expect(receiver.of(accepted.id)).toHaveLength(1);
    } finally {
      await worker.stop();
      worker = undefined;
      await proxy.cut();
      await queue.close();
    }
  });

  describeOnOneRedis('while Redis cannot be reached by the messages app (and no worker runs)', () => {
    beforeEach(async () => {
      await worker!.stop();
      worker = undefined;
    });

    it('accepts from the start, and a worker’s reconciler later delivers the stored message', async () => {
      const deadRedis = new URL(TEST_REDIS_URL);
      deadRedis.port = String(await freePort());
      const offline = await createMessagesApp({ env: { ...DELIVERY_ENV, REDIS_URL: deadRedis.toString() } });
      try {
        const accepted = await send('stored while Redis is down', offline, (await createAccount(offline)).auth);
        expect(await storedMessage(accepted.id)).toMatchObject({ status: 'queued', enqueued_at: null });

        worker = await startWorker(workerEnv);
        const stored = await waitForStatus(accepted.id, 'sent');
        expect(stored.enqueued_at).toBeInstanceOf(Date);
        expect(receiver.of(accepted.id)).toHaveLength(1);
      } finally {
        await offline.close();
      }
    });

    it('keeps accepting when Redis goes away while the app runs', async () => {
      const proxy = new TcpProxy(Number(new URL(TEST_REDIS_URL).port || 6379));
      const viaProxy = new URL(TEST_REDIS_URL);
      viaProxy.port = String(await proxy.start());
      const flaky = await createMessagesApp({ env: { ...DELIVERY_ENV, REDIS_URL: viaProxy.toString() } });
      try {
        const auth = (await createAccount(flaky)).auth;
        const before = await send('Redis is up', flaky, auth);
        await waitForEnqueued(before.id);

        await proxy.cut();
        const accepted = await send('Redis went away', flaky, auth);
        expect(await storedMessage(accepted.id)).toMatchObject({ status: 'queued', enqueued_at: null });

        worker = await startWorker(workerEnv);
        await waitForStatus(accepted.id, 'sent');
        expect(receiver.of(accepted.id)).toHaveLength(1);
      } finally {
        await proxy.restore();
        await flaky.close();
        await proxy.cut();
      }
    });
  });
});
