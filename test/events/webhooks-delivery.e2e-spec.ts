import type { Response } from 'supertest';
import { ENDPOINT_TARGET_TTL_MS } from '../../libs/events/src/delivery/endpoint-targets.cache';
import { createPet, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { createMessagesApp, startWorker, WebhookReceiver } from '../support/messages';
import { sleep, waitFor } from '../support/processes';
import { PRODUCTION_ENV } from '../support/test-env';
import {
  attemptsOf,
  createEndpoint,
  deliveriesOf,
  latestEvent,
  startWebhookStack,
  verified,
  waitForDeliveries,
  WEBHOOK_TEST_ENV,
  WebhookStack,
} from '../support/webhooks';

describe('webhook delivery by a real worker process', () => {
  let stack: WebhookStack;
  let receiver: WebhookReceiver;
  let baseUrl: string;
  let app: TestHttpApp;

  /** An account with one endpoint at its own path of the receiver. */
  const subscriber = async (events: string[] = ['*']) => {
    const account = await signUp(app.http);
    const endpoint = await createEndpoint(app.http, account, `${baseUrl}/${account.accountId}`, events);
    return { account, endpoint };
  };
  /** A pet listed by `account`, and the id of its pet.created event. */
  const listPet = async (account: TestAccount) => {
    const pet = await createPet(app.http, account, { name: 'Hooked' });
    return { pet, eventId: (await latestEvent(app.http, account, 'pet.created')).id };
  };

  beforeAll(async () => {
    stack = await startWebhookStack();
    ({ receiver, baseUrl, app } = stack);
  });
  beforeEach(() => {
    receiver.answer = (_delivery, response) => response.writeHead(204).end();
  });
  afterAll(() => stack?.stop());

  it('POSTs the Event with Standard Webhooks headers that the standardwebhooks package verifies', async () => {
    const { account, endpoint } = await subscriber(['pet.created']);
    const { pet, eventId } = await listPet(account);
    const [delivery, ...more] = await waitForDeliveries(receiver, eventId, 1);
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(Math.abs(Number(delivery!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    const event = (await app.http.get(`/v1/events/${eventId}`).set(account.auth).expect(200)).body;
    expect(verified(delivery!, endpoint.secret)).toEqual(event);
    expect(event.data.object).toEqual(pet);
    // A wrong secret does not verify.
    expect(() => verified(delivery!, `whsec_${Buffer.alloc(32, 1).toString('base64')}`)).toThrow();

    await waitFor(
      async () => (await attemptsOf(app.http, account, endpoint.id, eventId))[0]?.status === 'succeeded',
      5000,
      'the attempt to be logged',
    );
    const attempts = await attemptsOf(app.http, account, endpoint.id, eventId);
    expect(attempts).toEqual([
      expect.objectContaining({
        eventId,
        eventType: 'pet.created',
        attempt: 1,
        status: 'succeeded',
        responseStatus: 204,
        error: null,
      }),
    ]);
    expect(attempts[0]!.durationMs).toEqual(expect.any(Number));
    // The delivery has settled (no attempt pending, none to follow): what the receiver got is final.
    expect(more).toHaveLength(0);
    expect(deliveriesOf(receiver, eventId)).toHaveLength(1);
  });

  it('sends only to enabled endpoints subscribed to the type', async () => {
    const { account, endpoint: wanted } = await subscriber(['pet.created']);
    const other = await createEndpoint(app.http, account, `${baseUrl}/${account.accountId}/messages-only`, [
      'message.sent',
    ]);
    const disabled = await createEndpoint(app.http, account, `${baseUrl}/${account.accountId}/disabled`, ['*']);
    await app.http.patch(`/v1/webhook-endpoints/${disabled.id}`).set(account.auth).send({ enabled: false }).expect(200);
    const { eventId } = await listPet(account);
    await waitForDeliveries(receiver, eventId, 1);
    // Every endpoint's first attempt is opened in the transaction that dispatched the event, and the wanted
    // one's has settled: nothing more can be sent for it.
    await waitFor(
      async () => (await attemptsOf(app.http, account, wanted.id, eventId))[0]?.status === 'succeeded',
      5000,
      'the attempt to the subscribed endpoint to succeed',
    );
    expect(deliveriesOf(receiver, eventId)).toHaveLength(1);
    expect(await attemptsOf(app.http, account, other.id, eventId)).toEqual([]);
    expect(await attemptsOf(app.http, account, disabled.id, eventId)).toEqual([]);
    expect(await attemptsOf(app.http, account, wanted.id, eventId)).toHaveLength(1);
  });

  it('sends to an endpoint’s new URL once the worker’s read of the old one has expired', async () => {
    const { account, endpoint } = await subscriber(['pet.created']);
    const before = await listPet(account);
    const [toOld] = await waitForDeliveries(receiver, before.eventId, 1);
    expect(toOld!.path).toBe(`/${account.accountId}`);

    await app.http
      .patch(`/v1/webhook-endpoints/${endpoint.id}`)
      .set(account.auth)
      .send({ url: `${baseUrl}/${account.accountId}/moved` })
      .expect(200);
    await sleep(ENDPOINT_TARGET_TTL_MS);
    const after = await listPet(account);
    const [toNew] = await waitForDeliveries(receiver, after.eventId, 1);
    expect(toNew!.path).toBe(`/${account.accountId}/moved`);
  });

  it('retries a 500 with the same webhook-id, a new timestamp and signature, and logs every attempt', async () => {
    const { account, endpoint } = await subscriber();
    let calls = 0;
    receiver.answer = (_delivery, response) => response.writeHead(++calls === 1 ? 500 : 200).end();
    const { eventId } = await listPet(account);
    const [first, second] = await waitForDeliveries(receiver, eventId, 2);
    for (const delivery of [first!, second!])
      expect(verified(delivery, endpoint.secret)).toMatchObject({ id: eventId });
    expect(second!.body).toBe(first!.body);
    await waitFor(
      async () =>
        (await attemptsOf(app.http, account, endpoint.id, eventId)).length === 2 &&
        (await attemptsOf(app.http, account, endpoint.id, eventId))[0]!.status === 'succeeded',
      5000,
      'both attempts logged',
    );
    const attempts = await attemptsOf(app.http, account, endpoint.id, eventId);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.status, attempt.responseStatus, attempt.error])).toEqual(
      [
        [2, 'succeeded', 200, null],
        [1, 'failed', 500, 'answered 500'],
      ],
    );
  });

  it('gives up after WEBHOOK_MAX_ATTEMPTS failed attempts', async () => {
    const { account, endpoint } = await subscriber();
    receiver.answer = (_delivery, response) => response.writeHead(503).end();
    const { eventId } = await listPet(account);
    await waitForDeliveries(receiver, eventId, 3);
    // The third failure opens no fourth attempt: once it is logged, the delivery has ended.
    const ended = async () =>
      (await attemptsOf(app.http, account, endpoint.id, eventId)).map((attempt) => [attempt.attempt, attempt.status]);
    await waitFor(
      async () => (await ended())[0]?.[1] === 'failed' && (await ended()).length === 3,
      10000,
      'the third attempt to fail',
    );
    expect(await ended()).toEqual([
      [3, 'failed'],
      [2, 'failed'],
      [1, 'failed'],
    ]);
    expect(deliveriesOf(receiver, eventId)).toHaveLength(3);
  });

  it('pages the delivery log newest first with Link', async () => {
    const { account, endpoint } = await subscriber();
    const events: string[] = [];
    for (let i = 0; i < 3; i++) events.push((await listPet(account)).eventId);
    for (const eventId of events) await waitForDeliveries(receiver, eventId, 1);
    await waitFor(
      async () => (await attemptsOf(app.http, account, endpoint.id, events[2]!))[0]?.status === 'succeeded',
      5000,
      'the log',
    );
    const seen: string[] = [];
    let path: string | undefined = `/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=2`;
    while (path) {
      const response: Response = await app.http.get(path).set(account.auth).expect(200);
      seen.push(...response.body.map((attempt: { eventId: string }) => attempt.eventId));
      path = /<([^>]+)>; rel="next"/.exec(response.headers.link ?? '')?.[1];
    }
    expect(seen.sort()).toEqual([...events].sort());
  });

  it('delivers message.sent to the message’s sender once the worker has sent it', async () => {
    const messages = await createMessagesApp({ env: WEBHOOK_TEST_ENV });
    try {
      const { account, endpoint } = await subscriber(['message.sent']);
      const accepted = (await messages.http.post('/messages').set(account.auth).send({ message: 'hello' }).expect(202))
        .body;
      await waitFor(
        async () => (await latestEvent(app.http, account, 'message.sent')) !== undefined,
        20000,
        'message.sent',
      );
      const event = await latestEvent(app.http, account, 'message.sent');
      const [delivery] = await waitForDeliveries(receiver, event.id, 1);
      expect(verified(delivery!, endpoint.secret)).toMatchObject({
        type: 'message.sent',
        data: { object: { id: accepted.id, message: 'hello', status: 'sent' } },
      });
    } finally {
      await messages.close();
    }
  });

  it('does not deliver to a loopback address from a worker outside development', async () => {
    await stack.worker.stop('SIGKILL');
    stack.worker = await startWorker({ ...WEBHOOK_TEST_ENV, ...PRODUCTION_ENV });
    const { account, endpoint } = await subscriber();
    const { eventId } = await listPet(account);
    // Each failed attempt but the last opens the next, pending until it is made.
    const refused = (attempts: Array<{ status: string }>) =>
      attempts.length === 3 && attempts.every((attempt) => attempt.status === 'failed');
    await waitFor(
      async () => refused(await attemptsOf(app.http, account, endpoint.id, eventId)),
      20000,
      'three refused attempts',
    );
    const attempts = await attemptsOf(app.http, account, endpoint.id, eventId);
    expect(attempts[0]).toMatchObject({
      status: 'failed',
      responseStatus: null,
      error: 'host 127.0.0.1 resolves to 127.0.0.1, a loopback address',
    });
    expect(deliveriesOf(receiver, eventId)).toHaveLength(0);
  });
});
