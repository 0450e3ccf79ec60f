import type { DeliverEventJobData } from '@app/events';
import { WebhookAttemptsRepository } from '../../libs/events/src/delivery/webhook-attempts.repository';
import { WebhookEndpointsRepository } from '../../libs/events/src/webhooks/webhook-endpoints.repository';
import { createApiApp } from '../support/api-app';
import {
  deadlocksSoFar,
  meetBehindHeldRow,
  SCAN_BY_HEAP,
  SCAN_BY_ID,
  testDatabasePlanning,
  withDatabase,
} from '../support/database';
import { createPet, signUp } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { createEndpoint, WEBHOOK_TEST_ENV } from '../support/webhooks';

/** An api app (no worker runs here, so nothing dispatches or delivers), planning with `settings` if given. */
const apiApp = (settings?: string[]) =>
  createApiApp({ env: { ...WEBHOOK_TEST_ENV, ...(settings && { DATABASE_URL: testDatabasePlanning(settings) }) } });

/** `count` pet.created events of a new account to its one endpoint, in event id order; not yet stored as attempts. */
async function eventsToDeliver(app: TestHttpApp, count: number): Promise<DeliverEventJobData[]> {
  const account = await signUp(app.http);
  const endpoint = await createEndpoint(app.http, account, 'http://127.0.0.1:9/hooks');
  for (let i = 0; i < count; i++) await createPet(app.http, account, { name: `Batched ${i}` });
  const { rows } = await withDatabase((client) =>
    client.query<{ id: string }>('SELECT id FROM events WHERE account_id = $1 ORDER BY id', [account.accountId]),
  );
  return rows.map((row) => ({ eventId: row.id, endpointId: endpoint.id }));
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

/** The delivery's first attempt, opened as the dispatcher opens it. */
const toOpen = (delivery: DeliverEventJobData) => ({ ...delivery, eventType: 'pet.created' as const });

describe('webhook attempts that jobs look up and finish together', () => {
  let app: TestHttpApp;
  let attempts: WebhookAttemptsRepository;

  beforeAll(async () => {
    app = await apiApp();
    attempts = app.app.get(WebhookAttemptsRepository);
  });
  afterAll(() => app.close());

  it('finds each delivery’s pending attempt, writes outcomes once, and opens the next attempt of those retried', async () => {
    const [a, b, settled, retried] = await eventsToDeliver(app, 4);
    await attempts.openFirstAttempts([a!, b!, settled!, retried!].map(toOpen));
    // Opening them again (a dispatcher run twice) changes nothing.
    await attempts.openFirstAttempts([a!].map(toOpen));
    const settledAttempt = await attempts.pendingAttempt(settled!);
    await attempts.recordOutcome(settledAttempt!, { succeeded: true, responseStatus: 200, durationMs: 1 }, false);

    // Asked for in the same turn of the event loop: one batch.
    const pending = await Promise.all(
      [a, b, a, settled, retried].map((delivery) => attempts.pendingAttempt(delivery!)),
    );
    expect(pending.map((attempt) => attempt && [attempt.event.id, attempt.attempt])).toEqual([
      [a!.eventId, 1],
      [b!.eventId, 1],
      [a!.eventId, 1],
      undefined,
      [retried!.eventId, 1],
    ]);
    expect(pending[0]).toMatchObject({
      url: 'http://127.0.0.1:9/hooks',
      enabled: true,
      event: { type: 'pet.created', data: { object: { name: expect.stringMatching(/^Batched \d$/) } } },
    });
    expect(pending[2]!.attemptId).toBe(pending[0]!.attemptId);

    const [aAttempt, bAttempt, , , retriedAttempt] = pending;
    await Promise.all([
      attempts.recordOutcome(
        aAttempt!,
        { succeeded: false, responseStatus: 500, durationMs: 3, error: 'answered 500' },
        true,
      ),
      // The same attempt answered again in the same batch (a job run twice): the first outcome stands.
      attempts.recordOutcome(aAttempt!, { succeeded: true, responseStatus: 204, durationMs: 4 }, false),
      attempts.recordOutcome(bAttempt!, { succeeded: false, durationMs: 5, error: 'ECONNREFUSED' }, false),
      attempts.recordOutcome(
        retriedAttempt!,
        { succeeded: false, responseStatus: 503, durationMs: 6, error: 'answered 503' },
        true,
      ),
    ]);
    // Later, too: a settled attempt stays as it is, and opens no other.
    await attempts.recordOutcome(aAttempt!, { succeeded: false, responseStatus: 502, durationMs: 7 }, true);

    expect(await storedAttempts(a!)).toEqual([
      { attempt: 1, status: 'failed', response_status: 500, duration_ms: 3, error: 'answered 500' },
      { attempt: 2, status: 'pending', response_status: null, duration_ms: null, error: null },
    ]);
    expect(await storedAttempts(b!)).toEqual([
      { attempt: 1, status: 'failed', response_status: null, duration_ms: 5, error: 'ECONNREFUSED' },
    ]);
    expect(await storedAttempts(settled!)).toEqual([
      { attempt: 1, status: 'succeeded', response_status: 200, duration_ms: 1, error: null },
    ]);
    expect(await storedAttempts(retried!)).toEqual([
      { attempt: 1, status: 'failed', response_status: 503, duration_ms: 6, error: 'answered 503' },
      { attempt: 2, status: 'pending', response_status: null, duration_ms: null, error: null },
    ]);
    expect(await attempts.pendingAttempt(a!)).toMatchObject({ attempt: 2 });
    expect(await attempts.pendingAttempt(b!)).toBeUndefined();
  });

  it('says when the endpoint was disabled since the delivery was opened', async () => {
    const [delivery] = await eventsToDeliver(app, 1);
    await attempts.openFirstAttempts([toOpen(delivery!)]);
    await withDatabase((client) =>
      client.query('UPDATE webhook_endpoints SET enabled = false WHERE id = $1', [delivery!.endpointId]),
    );
    expect(await attempts.pendingAttempt(delivery!)).toMatchObject({ attempt: 1, enabled: false });
  });
});

describe('batched outcomes of webhook attempts', () => {
  it('of two batches over the same attempts, visited in opposite orders, are written without a deadlock', async () => {
    const deadlocksBefore = await deadlocksSoFar();
    const byId = await apiApp(SCAN_BY_ID);
    const byHeap = await apiApp(SCAN_BY_HEAP);
    try {
      const [low, high] = await eventsToDeliver(byId, 2);
      const repository = byId.app.get(WebhookAttemptsRepository);
      await repository.openFirstAttempts([low!, high!].map(toOpen));
      const [lowAttempt, highAttempt] = await Promise.all([low!, high!].map((d) => repository.pendingAttempt(d)));
      // A new version of the lower row, stored after the higher: a heap scan meets it last.
      await withDatabase((client) =>
        client.query('UPDATE webhook_attempts SET error = NULL WHERE id = $1', [lowAttempt!.attemptId]),
      );
      const outcomes = (from: typeof repository, responseStatus: number) => () =>
        Promise.all(
          [lowAttempt!, highAttempt!].map((attempt) =>
            from.recordOutcome(attempt, { succeeded: true, responseStatus, durationMs: 1 }, false),
          ),
        );

      // Locking as their scans go, the heap's batch would hold the higher row while it waits for the
      // lower one, and the other, once given the lower row, would wait for the higher: a deadlock.
      await meetBehindHeldRow(
        'webhook_attempts',
        { id: lowAttempt!.attemptId },
        outcomes(repository, 200),
        outcomes(byHeap.app.get(WebhookAttemptsRepository), 204),
      );

      // The batch that got the rows first wrote both; the other found them settled.
      const statuses = [...(await storedAttempts(low!)), ...(await storedAttempts(high!))].map(
        (attempt) => attempt.response_status,
      );
      expect(statuses).toEqual([200, 200]);
    } finally {
      await byId.close();
      await byHeap.close();
    }
    expect(await deadlocksSoFar()).toBe(deadlocksBefore);
  });

  it('of a failed attempt, opening the next while its endpoint is deleted, is written without a deadlock', async () => {
    const deadlocksBefore = await deadlocksSoFar();
    const app = await apiApp();
    try {
      const account = await signUp(app.http);
      const endpoint = await createEndpoint(app.http, account, 'http://127.0.0.1:9/hooks');
      await createPet(app.http, account, { name: 'Deleted with its endpoint' });
      const repository = app.app.get(WebhookAttemptsRepository);
      const {
        rows: [event],
      } = await withDatabase((client) =>
        client.query<{ id: string }>('SELECT id FROM events WHERE account_id = $1', [account.accountId]),
      );
      const delivery = { eventId: event!.id, endpointId: endpoint.id };
      await repository.openFirstAttempts([toOpen(delivery)]);
      const attempt = await repository.pendingAttempt(delivery);
      let written = false;
      let deleted: boolean | undefined;

      // The outcome waits for the attempt's row, then the endpoint's DELETE comes: had the outcome locked the
      // attempt before the endpoint, the DELETE would hold the endpoint while it waited for the attempt, and
      // the next attempt's foreign key would wait for the endpoint.
      await meetBehindHeldRow(
        'webhook_attempts',
        { id: attempt!.attemptId },
        async () => {
          await repository.recordOutcome(
            attempt!,
            { succeeded: false, responseStatus: 500, durationMs: 2, error: 'answered 500' },
            true,
          );
          written = true;
        },
        async () => {
          deleted = await app.app.get(WebhookEndpointsRepository).delete(account.accountId, endpoint.id);
        },
      );

      expect(written).toBe(true);
      expect(deleted).toBe(true);
      expect(await storedAttempts(delivery)).toEqual([]);
    } finally {
      await app.close();
    }
    expect(await deadlocksSoFar()).toBe(deadlocksBefore);
  });
});
