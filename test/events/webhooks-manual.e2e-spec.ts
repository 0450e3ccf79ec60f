import { WEBHOOK_USER_AGENT } from '@app/events';
import { ENDPOINT_TARGET_TTL_MS } from '../../libs/events/src/delivery/endpoint-targets.cache';
import { createPet, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import type { WebhookReceiver } from '../support/messages';
import { sleep, waitFor } from '../support/processes';
import {
  attemptsOf,
  createEndpoint,
  DeliveryAttempt,
  latestEvent,
  startWebhookStack,
  verified,
  waitForDeliveries,
  WebhookStack,
} from '../support/webhooks';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const HOUR_MS = 60 * 60 * 1000;

describe('what integrators ask of webhooks: rotation, redelivery, a test event', () => {
  let stack: WebhookStack;
  let receiver: WebhookReceiver;
  let baseUrl: string;
  let app: TestHttpApp;

  const subscriber = async (events: string[] = ['pet.created']) => {
    const account = await signUp(app.http);
    const endpoint = await createEndpoint(app.http, account, `${baseUrl}/${account.accountId}`, events);
    return { account, endpoint };
  };
  const listPet = async (account: TestAccount) => {
    await createPet(app.http, account, { name: 'Hooked' });
    return (await latestEvent(app.http, account, 'pet.created')).id;
  };
  const settled = (account: TestAccount, endpointId: number, eventId: string, attempt: number) =>
    waitFor(
      async () =>
        (await attemptsOf(app.http, account, endpointId, eventId)).some(
          (each) => each.attempt === attempt && each.status !== 'pending',
        ),
      20000,
      `attempt ${attempt} of ${eventId} settled`,
    ).then(() => attemptsOf(app.http, account, endpointId, eventId));
  const verifies = (delivery: Parameters<typeof verified>[0], secret: string) => {
    try {
      verified(delivery, secret);
      return true;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    stack = await startWebhookStack();
    ({ receiver, baseUrl, app } = stack);
  });
  beforeEach(() => {
    receiver.answer = (_delivery, response) => response.writeHead(204).end();
  });
  afterAll(() => stack?.stop());

  describe('rotateWebhookEndpointSecret', () => {
    it('signs with both secrets until the old one expires, then with the new one alone', async () => {
      const { account, endpoint } = await subscriber();
      const before = Date.now();
      const rotated = await app.http
        .post(`/v1/webhook-endpoints/${endpoint.id}/secret/rotate`)
        .set(account.auth)
        .send({})
        .expect(200);
      expect(rotated.body).toEqual({
        endpointId: endpoint.id,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        previousSecretExpiresAt: expect.stringMatching(ISO_UTC),
      });
      const expiresAt = Date.parse(rotated.body.previousSecretExpiresAt);
      expect(expiresAt).toBeGreaterThanOrEqual(before + 24 * HOUR_MS - 60_000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 24 * HOUR_MS + 60_000);

      const during = await listPet(account);
      const [overlap] = await waitForDeliveries(receiver, during, 1);
      expect(overlap!.headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
      expect(overlap!.headers['webhook-signature']).toMatch(/^v1,\S{44} v1,\S{44}$/);
      expect([verifies(overlap!, rotated.body.secret), verifies(overlap!, endpoint.secret)]).toEqual([true, true]);

      // Rotated again with no overlap: the secret of the first rotation stops at once, and the first is long gone.
      const again = await app.http
        .post(`/v1/webhook-endpoints/${endpoint.id}/secret/rotate`)
        .set(account.auth)
        .send({ previousSecretExpiresInHours: 0 })
        .expect(200);
      expect(Date.parse(again.body.previousSecretExpiresAt)).toBeLessThanOrEqual(Date.now() + 1000);
      // Workers reuse what they read of an endpoint for this long (docs/webhooks.md).
      await sleep(ENDPOINT_TARGET_TTL_MS);
      const after = await listPet(account);
      const [single] = await waitForDeliveries(receiver, after, 1);
      expect(single!.headers['webhook-signature']).toMatch(/^v1,\S{44}$/);
      expect(
        [again.body.secret, rotated.body.secret, endpoint.secret].map((secret) => verifies(single!, secret)),
      ).toEqual([true, false, false]);
    });

    it('answers a retry with the same Idempotency-Key with 409, never showing the secret again', async () => {
      const { account, endpoint } = await subscriber();
      const rotate = () =>
        app.http
          .post(`/v1/webhook-endpoints/${endpoint.id}/secret/rotate`)
          .set(account.auth)
          .set('Idempotency-Key', `rotate-${endpoint.id}`)
          .send({ previousSecretExpiresInHours: 2 });
      await rotate().expect(200);
      const retried = await rotate().expect(409);
      expect(retried.body).toEqual({
        code: 'webhook_secret_already_rotated',
        status: 409,
        message: expect.stringContaining(`webhook endpoint ${endpoint.id}`),
      });
      expect(JSON.stringify(retried.body)).not.toContain('whsec_');
    });

    it.each([[-1], [169], [1.5], ['24']])(
      'refuses previousSecretExpiresInHours %p with validation_failed',
      async (hours) => {
        const { account, endpoint } = await subscriber();
        const refused = await app.http
          .post(`/v1/webhook-endpoints/${endpoint.id}/secret/rotate`)
          .set(account.auth)
          .send({ previousSecretExpiresInHours: hours })
          .expect(400);
        expect(refused.body).toMatchObject({
          code: 'validation_failed',
          message: expect.stringContaining('previousSecretExpiresInHours'),
        });
      },
    );

    it('refuses previousSecretExpiresInHours null before rotating: the endpoint keeps its one secret', async () => {
      const { account, endpoint } = await subscriber();
      const refused = await app.http
        .post(`/v1/webhook-endpoints/${endpoint.id}/secret/rotate`)
        .set(account.auth)
        .send({ previousSecretExpiresInHours: null })
        .expect(400);
      expect(refused.body).toEqual({
        code: 'validation_failed',
        status: 400,
        message: expect.stringContaining('previousSecretExpiresInHours'),
        details: [expect.objectContaining({ field: 'previousSecretExpiresInHours' })],
      });
      const [delivery] = await waitForDeliveries(receiver, await listPet(account), 1);
      expect(delivery!.headers['webhook-signature']).toMatch(/^v1,\S{44}$/);
      expect(verifies(delivery!, endpoint.secret)).toBe(true);
    });

    it('answers 404 for another account’s endpoint', async () => {
      const { endpoint } = await subscriber();
      const other = await signUp(app.http);
      const refused = await app.http
        .post(`/v1/webhook-endpoints/${endpoint.id}/secret/rotate`)
        .set(other.auth)
        .send({})
        .expect(404);
      expect(refused.body).toEqual({ code: 'not_found', status: 404, message: expect.any(String) });
    });
  });

  describe('redeliverWebhookEvent', () => {
    it('sends a delivered event again once, with the same webhook-id, listed as a manual attempt', async () => {
      const { account, endpoint } = await subscriber();
      const eventId = await listPet(account);
      await waitForDeliveries(receiver, eventId, 1);
      await settled(account, endpoint.id, eventId, 1);

      const answer = await app.http
        .post(`/v1/webhook-endpoints/${endpoint.id}/redeliveries`)
        .set(account.auth)
        .send({ eventId })
        .expect(202);
      expect(answer.body).toEqual({
        id: expect.any(Number),
        eventId,
        eventType: 'pet.created',
        attempt: 2,
        status: 'pending',
        manual: true,
        responseStatus: null,
        durationMs: null,
        error: null,
        createdAt: expect.stringMatching(ISO_UTC),
      });
      const [first, again] = await waitForDeliveries(receiver, eventId, 2);
      expect(again!.body).toBe(first!.body);
      expect(verified(again!, endpoint.secret)).toMatchObject({ id: eventId });

      const attempts = await settled(account, endpoint.id, eventId, 2);
      expect(attempts.map(({ attempt, status, manual }: DeliveryAttempt) => [attempt, status, manual])).toEqual([
        [2, 'succeeded', true],
        [1, 'succeeded', false],
      ]);
    });

    it('makes one attempt only: a failed redelivery opens no next attempt', async () => {
      const { account, endpoint } = await subscriber();
      const eventId = await listPet(account);
      await settled(account, endpoint.id, eventId, 1);
      receiver.answer = (_delivery, response) => response.writeHead(500).end();
      await app.http
        .post(`/v1/webhook-endpoints/${endpoint.id}/redeliveries`)
        .set(account.auth)
        .send({ eventId })
        .expect(202);
      // A retried attempt's outcome and its next attempt are written by one statement: settled, nothing follows.
      const attempts = await settled(account, endpoint.id, eventId, 2);
      expect(attempts.map(({ attempt, status, error }) => [attempt, status, error])).toEqual([
        [2, 'failed', 'answered 500'],
        [1, 'succeeded', null],
      ]);
    });

    it('sends any of the account’s events, even of a type the endpoint does not subscribe to', async () => {
      const { account, endpoint } = await subscriber();
      const other = await createEndpoint(app.http, account, `${baseUrl}/${account.accountId}/orders`, ['order.placed']);
      const eventId = await listPet(account);
      // Dispatched once its delivery to the subscriber has been made: until then a redelivery is refused.
      await settled(account, endpoint.id, eventId, 1);
      const answer = await app.http
        .post(`/v1/webhook-endpoints/${other.id}/redeliveries`)
        .set(account.auth)
        .send({ eventId })
        .expect(202);
      expect(answer.body).toMatchObject({ attempt: 1, manual: true, eventType: 'pet.created' });
      await waitFor(
        async () =>
          receiver.deliveries.some(
            (d) => d.path === `/${account.accountId}/orders` && d.headers['webhook-id'] === eventId,
          ),
        20000,
        'the redelivery to the other endpoint',
      );
    });

    it('refuses while the event’s delivery to the endpoint is under way', async () => {
      const { account, endpoint } = await subscriber();
      // Held unanswered until the test ends: the attempt stays pending (then times out).
      receiver.answer = () => undefined;
      const eventId = await listPet(account);
      const refused = await app.http
        .post(`/v1/webhook-endpoints/${endpoint.id}/redeliveries`)
        .set(account.auth)
        .send({ eventId })
        .expect(409);
      expect(refused.body).toEqual({
        code: 'webhook_delivery_pending',
        status: 409,
        message: expect.stringContaining(eventId),
      });
    });

    it('answers 404 for an unknown event, another account’s event or endpoint, and 400 for a malformed id', async () => {
      const { account, endpoint } = await subscriber();
      const stranger = await subscriber();
      const theirs = await listPet(stranger.account);
      const redeliver = (who: TestAccount, endpointId: number, eventId: unknown) =>
        app.http.post(`/v1/webhook-endpoints/${endpointId}/redeliveries`).set(who.auth).send({ eventId });
      for (const [endpointId, eventId] of [
        [endpoint.id, `evt_${'A'.repeat(24)}`],
        [endpoint.id, theirs],
        [stranger.endpoint.id, theirs],
      ] as const)
        expect((await redeliver(account, endpointId, eventId).expect(404)).body).toMatchObject({ code: 'not_found' });
      for (const eventId of ['evt_short', 42, undefined])
        expect((await redeliver(account, endpoint.id, eventId).expect(400)).body).toMatchObject({
          code: 'validation_failed',
          message: expect.stringContaining('eventId'),
        });
    });

    it('refuses a disabled endpoint with webhook_endpoint_disabled', async () => {
      const { account, endpoint } = await subscriber();
      const eventId = await listPet(account);
      await app.http
        .patch(`/v1/webhook-endpoints/${endpoint.id}`)
        .set(account.auth)
        .send({ enabled: false })
        .expect(200);
      for (const request of [
        app.http.post(`/v1/webhook-endpoints/${endpoint.id}/redeliveries`).set(account.auth).send({ eventId }),
        app.http.post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(account.auth),
      ])
        expect((await request.expect(409)).body).toEqual({
          code: 'webhook_endpoint_disabled',
          status: 409,
          message: expect.stringContaining(`${endpoint.id} is disabled`),
        });
    });
  });

  describe('testWebhookEndpoint', () => {
    it('sends a webhook_endpoint.test event carrying the endpoint to that endpoint only', async () => {
      const { account, endpoint } = await subscriber(['order.placed']);
      const everything = await createEndpoint(app.http, account, `${baseUrl}/${account.accountId}/all`, ['*']);
      const answer = await app.http.post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(account.auth).expect(202);
      expect(answer.body).toMatchObject({
        eventType: 'webhook_endpoint.test',
        attempt: 1,
        status: 'pending',
        manual: true,
      });
      const eventId = answer.body.eventId as string;
      const [delivery] = await waitForDeliveries(receiver, eventId, 1);
      expect(delivery!.path).toBe(`/${account.accountId}`);
      expect(delivery!.headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
      const shown = (await app.http.get(`/v1/webhook-endpoints/${endpoint.id}`).set(account.auth).expect(200)).body;
      expect(verified(delivery!, endpoint.secret)).toEqual({
        id: eventId,
        type: 'webhook_endpoint.test',
        createdAt: expect.stringMatching(ISO_UTC),
        data: { object: shown },
      });
      const feed = await app.http.get('/v1/events?type=webhook_endpoint.test').set(account.auth).expect(200);
      expect(feed.body.map((event: { id: string }) => event.id)).toEqual([eventId]);
      await settled(account, endpoint.id, eventId, 1);
      // The dispatcher (every 50 ms here) never handed it to the endpoint that takes every type.
      expect(await attemptsOf(app.http, account, everything.id, eventId)).toEqual([]);
    });

    it('replays its answer for a retry with the same Idempotency-Key, sending nothing more', async () => {
      const { account, endpoint } = await subscriber();
      const test = () =>
        app.http
          .post(`/v1/webhook-endpoints/${endpoint.id}/test`)
          .set(account.auth)
          .set('Idempotency-Key', `test-${endpoint.id}`);
      const first = await test().expect(202);
      const retried = await test().expect(202);
      expect(retried.headers['idempotent-replayed']).toBe('true');
      expect(retried.body).toEqual(first.body);
      const feed = await app.http.get('/v1/events?type=webhook_endpoint.test').set(account.auth).expect(200);
      expect(feed.body).toHaveLength(1);
    });

    it('is no type an endpoint can subscribe to', async () => {
      const account = await signUp(app.http);
      const refused = await app.http
        .post('/v1/webhook-endpoints')
        .set(account.auth)
        .send({ url: `${baseUrl}/x`, events: ['webhook_endpoint.test'] })
        .expect(400);
      expect(refused.body).toMatchObject({ code: 'validation_failed' });
    });
  });
});
