import { WEBHOOKS_QUEUE } from '@app/events';
import { Webhook } from 'standardwebhooks';
import type TestAgent from 'supertest/lib/agent';
import { createApiApp } from './api-app';
import { withDatabase } from './database';
import type { TestAccount } from './factories';
import type { TestHttpApp } from './http-app';
import { Delivery, startWorker, WebhookReceiver } from './messages';
import { AppProcess, waitFor } from './processes';
import { testQueue } from './redis';

/** Short enough for tests, same semantics: shared by the api (job options) and the workers. */
export const WEBHOOK_TEST_ENV = {
  EVENTS_DISPATCH_INTERVAL_MS: '50',
  EVENTS_RECONCILE_INTERVAL_MS: '500',
  WEBHOOK_BACKOFF_MS: '50',
  WEBHOOK_MAX_ATTEMPTS: '3',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LOCK_DURATION_MS: '1000',
};

/** Empties the test webhooks queue (and its stalled-check key) for a suite that starts workers. */
export async function emptyWebhooksQueue(): Promise<void> {
  const queue = testQueue(WEBHOOKS_QUEUE);
  try {
    await queue.obliterate({ force: true });
  } finally {
    await queue.close();
  }
}

/** An api app, a real worker process and a receiver, with the webhooks queue emptied first. */
export interface WebhookStack {
  receiver: WebhookReceiver;
  /** The receiver's root: each test's endpoints listen at a path of their own below it. */
  baseUrl: string;
  app: TestHttpApp;
  /** A test may replace it with a worker of other settings: `stop` ends whichever runs. */
  worker: AppProcess;
  stop(): Promise<void>;
}

/**
 * Settles what earlier suites left in the shared database: their events dispatched, their pending attempts
 * failed. A worker dispatches every event not yet dispatched, and its reconciler enqueues every pending attempt
 * again: deliveries to those suites' endpoints, long gone, would queue ahead of this suite's own.
 */
export async function settleEarlierDeliveries(): Promise<void> {
  await withDatabase(async (client) => {
    await client.query('UPDATE events SET dispatched_at = now() WHERE dispatched_at IS NULL');
    await client.query(
      `UPDATE webhook_attempts SET status = 'failed', error = 'left by an earlier suite' WHERE status = 'pending'`,
    );
  });
}

/** Starts the stack for a suite, answering every delivery 204 until a test says otherwise. */
export async function startWebhookStack(): Promise<WebhookStack> {
  await Promise.all([emptyWebhooksQueue(), settleEarlierDeliveries()]);
  const receiver = new WebhookReceiver();
  const baseUrl = (await receiver.start()).replace(/\/hooks\/messages$/, '');
  const app = await createApiApp({ env: WEBHOOK_TEST_ENV });
  const worker = await startWorker(WEBHOOK_TEST_ENV);
  const stack: WebhookStack = {
    receiver,
    baseUrl,
    app,
    worker,
    async stop() {
      await stack.worker.stop('SIGKILL');
      await app.close();
      await receiver.stop();
    },
  };
  return stack;
}

export interface CreatedEndpoint {
  id: number;
  secret: string;
}

export async function createEndpoint(
  http: TestAgent,
  account: TestAccount,
  url: string,
  events: string[] = ['*'],
): Promise<CreatedEndpoint> {
  return (await http.post('/v1/webhook-endpoints').set(account.auth).send({ url, events }).expect(201)).body;
}

/** The deliveries of one event (one `webhook-id`) the receiver has had. */
export function deliveriesOf(receiver: WebhookReceiver, eventId: string): Delivery[] {
  return receiver.deliveries.filter((delivery) => delivery.headers['webhook-id'] === eventId);
}

export async function waitForDeliveries(
  receiver: WebhookReceiver,
  eventId: string,
  count: number,
  timeoutMs = 20000,
): Promise<Delivery[]> {
  await waitFor(
    async () => deliveriesOf(receiver, eventId).length >= count,
    timeoutMs,
    `${count} deliveries of ${eventId}`,
  );
  return deliveriesOf(receiver, eventId);
}

/** The Event a delivery carries, verified the Standard Webhooks way by an independent implementation. */
export function verified(delivery: Delivery, secret: string): unknown {
  return new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
}

/** The latest event of `type` in the account's feed. */
export async function latestEvent(http: TestAgent, account: TestAccount, type: string): Promise<{ id: string }> {
  const events = (await http.get(`/v1/events?type=${type}&limit=1`).set(account.auth).expect(200)).body;
  return events[0];
}

export interface DeliveryAttempt {
  eventId: string;
  attempt: number;
  status: string;
  manual: boolean;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
}

export async function attemptsOf(
  http: TestAgent,
  account: TestAccount,
  endpointId: number,
  eventId: string,
): Promise<DeliveryAttempt[]> {
  const all = (await http.get(`/v1/webhook-endpoints/${endpointId}/deliveries?limit=100`).set(account.auth).expect(200))
    .body as DeliveryAttempt[];
  return all.filter((attempt) => attempt.eventId === eventId);
}
