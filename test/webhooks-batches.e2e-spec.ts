import type { DeliverEventJobData } from '@app/events';
import { WebhookDeliveriesRepository } from '../libs/events/src/delivery/webhook-deliveries.repository';
import { createApiApp } from './support/api-app';
import {
  deadlocksSoFar,
  meetBehindHeldRow,
  SCAN_BY_HEAP,
  SCAN_BY_ID,
  testDatabasePlanning,
  withDatabase,
} from './support/database';
import { createPet, signUp } from './support/factories';
import type { TestHttpApp } from './support/http-app';
import { createEndpoint, WEBHOOK_TEST_ENV } from './support/webhooks';

/** An api app (no worker runs here, so nothing dispatches or delivers), planning with `settings` if given. */
const apiApp = (settings?: string[]) =>
  createApiApp({ env: { ...WEBHOOK_TEST_ENV, ...(settings && { DATABASE_URL: testDatabasePlanning(settings) }) } });

/** `count` pet.created events of a new account to its one endpoint, in event id order; not yet stored as deliveries. */
async function eventsToDeliver(app: TestHttpApp, count: number): Promise<DeliverEventJobData[]> {
  const account = await signUp(app.http);
  const endpoint = await createEndpoint(app.http, account, 'http://127.0.0.1:9/hooks');
  for (let i = 0; i < count; i++) await createPet(app.http, account, { name: `Batched ${i}` });
  const { rows } = await withDatabase((client) =>
    client.query<{ id: string }>('SELECT id FROM events WHERE account_id = $1 ORDER BY id', [account.accountId]),
  );
  return rows.map((row) => ({ eventId: row.id, endpointId: endpoint.id }));
}

async function storedDelivery({ eventId, endpointId }: DeliverEventJobData) {
  const { rows } = await withDatabase((client) =>
    client.query<{ status: string; attempts: number; enqueued_at: Date | null }>(
      'SELECT status, attempts, enqueued_at FROM webhook_deliveries WHERE event_id = $1 AND endpoint_id = $2',
      [eventId, endpointId],
    ),
  );
  return rows[0];
}

async function storedAttempts({ eventId, endpointId }: DeliverEventJobData) {
  const { rows } = await withDatabase((client) =>
    client.query(
      `SELECT attempt, status, response_status, duration_ms, error FROM webhook_attempts
        WHERE event_id = $1 AND endpoint_id = $2 ORDER BY attempt`,
      [eventId, endpointId],
    ),
  );
  return rows;
}

describe('webhook attempts that jobs start and finish together', () => {
  let app: TestHttpApp;
  let deliveries: WebhookDeliveriesRepository;

  beforeAll(async () => {
    app = await apiApp();
    deliveries = app.app.get(WebhookDeliveriesRepository);
  });
  afterAll(() => app.close());

  it('counts each delivery’s own attempt, a second one for a delivery asked for twice, and none for a settled one', async () => {
    const [a, b, settled, retried] = await eventsToDeliver(app, 4);
    await deliveries.create([a!, b!, settled!, retried!]);
    await deliveries.abandon(settled!);

    // Asked for in the same turn of the event loop: one batch.
    const started = await Promise.all(
      [a, b, a, settled, retried].map((delivery) => deliveries.startAttempt(delivery!)),
    );
    expect(started.map((attempt) => attempt && [attempt.event.id, attempt.attempt])).toEqual([
      [a!.eventId, 1],
      [b!.eventId, 1],
      [a!.eventId, 2],
      undefined,
      [retried!.eventId, 1],
    ]);
    expect(started[0]).toMatchObject({
      url: 'http://127.0.0.1:9/hooks',
      event: { type: 'pet.created', data: { object: { name: expect.stringMatching(/^Batched \d$/) } } },
    });
    expect(new Set(started.map((attempt) => attempt?.attemptId)).size).toBe(5);

    await Promise.all([
      deliveries.recordOutcome(
        a!,
        started[0]!.attemptId,
        { succeeded: false, responseStatus: 500, durationMs: 3, error: 'answered 500' },
        false,
      ),
      deliveries.recordOutcome(
        a!,
        started[2]!.attemptId,
        { succeeded: true, responseStatus: 204, durationMs: 4 },
        false,
      ),
      deliveries.recordOutcome(
        b!,
        started[1]!.attemptId,
        { succeeded: false, durationMs: 5, error: 'ECONNREFUSED' },
        true,
      ),
      deliveries.recordOutcome(
        retried!,
        started[4]!.attemptId,
        { succeeded: false, responseStatus: 503, durationMs: 6, error: 'answered 503' },
        false,
      ),
    ]);
    expect(await storedDelivery(a!)).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(await storedAttempts(a!)).toEqual([
      { attempt: 1, status: 'failed', response_status: 500, duration_ms: 3, error: 'answered 500' },
      { attempt: 2, status: 'succeeded', response_status: 204, duration_ms: 4, error: null },
    ]);
    expect(await storedDelivery(b!)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(await storedAttempts(b!)).toEqual([
      { attempt: 1, status: 'failed', response_status: null, duration_ms: 5, error: 'ECONNREFUSED' },
    ]);
    expect(await storedDelivery(settled!)).toMatchObject({ status: 'failed', attempts: 0 });
    expect(await storedAttempts(settled!)).toEqual([]);
    // Not the last attempt: the delivery waits for the next.
    expect(await storedDelivery(retried!)).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('starts no attempt for an endpoint disabled since the delivery was stored', async () => {
    const [delivery] = await eventsToDeliver(app, 1);
    await deliveries.create([delivery!]);
    await withDatabase((client) =>
      client.query('UPDATE webhook_endpoints SET enabled = false WHERE id = $1', [delivery!.endpointId]),
    );
    expect(await deliveries.startAttempt(delivery!)).toBeUndefined();
    expect(await storedAttempts(delivery!)).toEqual([]);
  });
});

describe('batched updates of webhook deliveries', () => {
  it('record deliveries enqueued and start their attempts over the same rows, visited in opposite orders, without a deadlock', async () => {
    const deadlocksBefore = await deadlocksSoFar();
    const byId = await apiApp(SCAN_BY_ID);
    const byHeap = await apiApp(SCAN_BY_HEAP);
    try {
      const [low, high] = await eventsToDeliver(byId, 2);
      // The higher key is stored first, so a heap scan meets it first and an index scan last.
      const repository = byId.app.get(WebhookDeliveriesRepository);
      await repository.create([high!]);
      await repository.create([low!]);

      // Locking as their scans go, the attempts' batch would hold the higher row while it waits for the
      // lower one, and the enqueued batch, once given the lower row, would wait for the higher: a deadlock.
      await meetBehindHeldRow(
        'webhook_deliveries',
        { event_id: low!.eventId, endpoint_id: low!.endpointId },
        () => {
          for (const delivery of [low!, high!]) repository.recordEnqueued(delivery);
          return repository.flushEnqueued();
        },
        () =>
          Promise.all(
            [low!, high!].map((delivery) => byHeap.app.get(WebhookDeliveriesRepository).startAttempt(delivery)),
          ),
      );

      for (const delivery of [low!, high!])
        expect(await storedDelivery(delivery)).toMatchObject({ attempts: 1, enqueued_at: expect.any(Date) });
    } finally {
      await byId.close();
      await byHeap.close();
    }
    expect(await deadlocksSoFar()).toBe(deadlocksBefore);
  });
});
