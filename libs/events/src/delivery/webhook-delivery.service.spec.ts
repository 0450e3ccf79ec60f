import { double } from '../../../../test/support/doubles';
import { once } from 'node:events';
import { createSecretKey } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AppEnv, CoreSettings } from '@app/core';
import { EventObjects } from '../event-objects';
import type { EventsSettings } from '../events.settings';
import type { WebhookSecrets } from '../webhooks/webhook-secrets';
import type { EndpointTargetsCache } from './endpoint-targets.cache';
import type { PendingAttempt, WebhookAttemptsRepository } from './webhook-attempts.repository';
import { ENDPOINT_DISABLED, WebhookAttemptFailedError, WebhookDeliveryService } from './webhook-delivery.service';

const DELIVERY = { eventId: 'evt_1', endpointId: 7 };
/** The row the outcomes are written to. */
const ATTEMPT = expect.objectContaining({ attemptId: 41, endpointId: 7 });

/** What a test opened (receivers, senders' connections), closed after it. */
const toClose: Array<() => unknown> = [];
afterEach(async () => {
  // Last opened first: the senders let go of their connections before the receivers close.
  for (const close of toClose.splice(0).reverse()) await close();
});

/** A receiver on 127.0.0.1 answering `status`. */
async function receiver(status: number) {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(status).end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  toClose.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${port}/hooks` };
}

function setUp(url: string, attempt: number, enabled = true, manual = false) {
  const pending: PendingAttempt = {
    attemptId: 41,
    endpointId: 7,
    attempt,
    manual,
    url,
    secretCiphertext: 'v1.sealed',
    previousSecretCiphertext: null,
    previousSecretExpiresAt: null,
    enabled,
    event: { id: 'evt_1', type: 'pet.created', createdAt: '2026-06-01T00:00:00.000Z', data: { object: { id: 1 } } },
  };
  const attempts = {
    pendingAttempt: jest.fn().mockResolvedValue(pending),
    recordOutcome: jest.fn().mockResolvedValue(undefined),
  } satisfies Partial<WebhookAttemptsRepository>;
  const secrets = { signingKeys: () => [createSecretKey(Buffer.alloc(32, 1))] } satisfies Partial<WebhookSecrets>;
  const endpoints = {
    get: jest.fn().mockResolvedValue({ id: 7, url, secretCiphertext: 'v1.sealed', enabled }),
  } satisfies Partial<EndpointTargetsCache>;
  const delivery = new WebhookDeliveryService(
    double<WebhookAttemptsRepository>(attempts),
    double<EndpointTargetsCache>(endpoints),
    double<WebhookSecrets>(secrets),
    { WEBHOOK_TIMEOUT_MS: 2000, WEBHOOK_MAX_ATTEMPTS: 3 } as EventsSettings,
    new (class extends EventObjects {
      served = (_type: unknown, object: Record<string, unknown>) => object;
    })(),
    { APP_ENV: AppEnv.Development } as CoreSettings,
    async () => ['127.0.0.1'],
  );
  toClose.push(() => delivery.onApplicationShutdown());
  return { delivery, attempts, endpoints, pending };
}

describe('WebhookDeliveryService', () => {
  it('returns the answer once the endpoint gave it, without waiting for its outcome to be written', async () => {
    const target = await receiver(204);
    const { delivery, attempts } = setUp(target.url, 1);
    // The write of the outcome never ends here: the attempt must not wait for it.
    attempts.recordOutcome.mockReturnValue(new Promise<void>(() => undefined));
    await expect(delivery.attempt(DELIVERY, false)).resolves.toEqual({
      responseStatus: 204,
      durationMs: expect.any(Number),
    });
    expect(attempts.recordOutcome).toHaveBeenCalledWith(
      ATTEMPT,
      expect.objectContaining({ succeeded: true, responseStatus: 204 }),
      false,
    );
  });

  it('has a failed attempt’s outcome written with the next attempt opened before it throws for a retry', async () => {
    const target = await receiver(503);
    const { delivery, attempts } = setUp(target.url, 2);
    // Written some time after it was asked for: the attempt must wait for it.
    let written = false;
    attempts.recordOutcome.mockImplementation(
      () =>
        new Promise((resolve) =>
          setTimeout(() => {
            written = true;
            resolve(undefined);
          }, 20),
        ),
    );
    const failure = await delivery.attempt(DELIVERY, false).catch((error: unknown) => error);
    expect(failure).toMatchObject({ message: 'answered 503', last: false });
    expect(written).toBe(true);
    expect(attempts.recordOutcome).toHaveBeenCalledWith(
      ATTEMPT,
      expect.objectContaining({ succeeded: false, responseStatus: 503 }),
      true,
    );
  });

  it('throws the write’s error when a failed attempt’s outcome could not be written, so that no attempt is used up', async () => {
    const target = await receiver(500);
    const { delivery, attempts } = setUp(target.url, 1);
    const unavailable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    attempts.recordOutcome.mockRejectedValue(unavailable);
    await expect(delivery.attempt(DELIVERY, false)).rejects.toBe(unavailable);
  });

  it('opens no attempt after a failed manual one (a redelivery or a test event), whatever its number', async () => {
    const target = await receiver(500);
    const { delivery, attempts } = setUp(target.url, 1, true, true);
    const failure = await delivery.attempt(DELIVERY, false).catch((error: unknown) => error);
    expect(failure).toMatchObject({ message: 'answered 500', last: true });
    expect(attempts.recordOutcome).toHaveBeenCalledWith(ATTEMPT, expect.objectContaining({ succeeded: false }), false);
  });

  it('opens no attempt after a failed last one, and throws so that the queue gives up', async () => {
    const target = await receiver(500);
    const { delivery, attempts } = setUp(target.url, 3);
    const failure = await delivery.attempt(DELIVERY, false).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WebhookAttemptFailedError);
    expect(failure).toMatchObject({ message: 'answered 500', last: true });
    expect(attempts.recordOutcome).toHaveBeenCalledWith(
      ATTEMPT,
      expect.objectContaining({ succeeded: false, responseStatus: 500, error: 'answered 500' }),
      false,
    );
  });

  it('sends nothing for a settled delivery, and writes nothing', async () => {
    const { delivery, attempts } = setUp('http://127.0.0.1:9/hooks', 1);
    attempts.pendingAttempt.mockResolvedValue(undefined);
    await expect(delivery.attempt(DELIVERY, false)).resolves.toBeUndefined();
    expect(attempts.recordOutcome).not.toHaveBeenCalled();
  });

  it('fails the attempt of a disabled endpoint without a request, and opens no other', async () => {
    const { delivery, attempts } = setUp('http://127.0.0.1:9/hooks', 1, false);
    await expect(delivery.attempt(DELIVERY, false)).resolves.toBeUndefined();
    expect(attempts.recordOutcome.mock.calls).toEqual([
      [ATTEMPT, { succeeded: false, error: ENDPOINT_DISABLED }, false],
    ]);
  });

  it('makes a job’s first run with the attempt and event the dispatcher gave it, reading neither', async () => {
    const target = await receiver(204);
    const { delivery, attempts, endpoints, pending } = setUp(target.url, 1);
    const first = { ...DELIVERY, first: { attemptId: 41, event: pending.event } };
    await expect(delivery.attempt(first, true)).resolves.toMatchObject({ responseStatus: 204 });
    expect(attempts.pendingAttempt).not.toHaveBeenCalled();
    expect(endpoints.get).toHaveBeenCalledWith(7);
    expect(attempts.recordOutcome).toHaveBeenCalledWith(ATTEMPT, expect.objectContaining({ succeeded: true }), false);

    // A later run (a retry) reads its pending attempt, whatever the job carries.
    await delivery.attempt(first, false);
    expect(attempts.pendingAttempt).toHaveBeenCalledWith(first);
  });

  it('sends nothing on a first run whose endpoint is gone, once its pending attempt says so too', async () => {
    const { delivery, attempts, endpoints, pending } = setUp('http://127.0.0.1:9/hooks', 1);
    endpoints.get.mockResolvedValue(undefined);
    attempts.pendingAttempt.mockResolvedValue(undefined);
    const first = { ...DELIVERY, first: { attemptId: 41, event: pending.event } };
    await expect(delivery.attempt(first, true)).resolves.toBeUndefined();
    expect(attempts.pendingAttempt).toHaveBeenCalledWith(first);
    expect(attempts.recordOutcome).not.toHaveBeenCalled();
  });

  it('delivers on a first run whose endpoint was read disabled but is enabled again, as its pending attempt says', async () => {
    const target = await receiver(204);
    const { delivery, attempts, endpoints, pending } = setUp(target.url, 1);
    endpoints.get.mockResolvedValue({ id: 7, url: target.url, secretCiphertext: 'v1.sealed', enabled: false });
    const first = { ...DELIVERY, first: { attemptId: 41, event: pending.event } };
    await expect(delivery.attempt(first, true)).resolves.toMatchObject({ responseStatus: 204 });
    expect(attempts.pendingAttempt).toHaveBeenCalledWith(first);
    expect(attempts.recordOutcome).toHaveBeenCalledWith(ATTEMPT, expect.objectContaining({ succeeded: true }), false);
  });
});
