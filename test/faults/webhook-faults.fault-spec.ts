import { once } from 'node:events';
import { createServer, ServerResponse } from 'node:http';
import { suiteDatabase, SuiteDatabase, withDatabase } from '../support/database';
import type { Delivery } from '../support/messages';
import { AppProcess, freePort, startServing, waitFor } from '../support/processes';
import { ThrowawayRedis } from '../support/throwaway-services';
import { WEBHOOK_TEST_ENV } from '../support/webhooks';

/**
 * The api and a worker as real processes on a database and a Redis of the suite's own (Redis without
 * persistence: a restart loses the queue), delivering to a receiver the test starts, stops and slows.
 */
describe('faults: webhook delivery', () => {
  const redis = new ThrowawayRedis();
  let database: SuiteDatabase;
  let api: AppProcess & { baseUrl: string };
  let worker: AppProcess | undefined;
  let env: Record<string, string>;
  const deliveries: Delivery[] = [];
  let answer: (delivery: Delivery, response: ServerResponse) => void;
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const delivery = { path: request.url!, headers: request.headers, body };
      deliveries.push(delivery);
      answer(delivery, response);
    });
  });
  let receiverPort: number;

  const startReceiver = async () => {
    receiver.listen(receiverPort, '127.0.0.1');
    await once(receiver, 'listening');
  };
  const stopReceiver = async () => {
    receiver.closeAllConnections();
    receiver.close();
    await once(receiver, 'close');
  };
  const call = async (path: string, key: string, body?: unknown) => {
    const response = await fetch(`${api.baseUrl}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  /** An account with one endpoint on the receiver; returns its key. */
  const subscriber = async () => {
    const signUp = await fetch(`${api.baseUrl}/v1/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: `webhook-faults-${Math.random()}@example.com` }),
    });
    const key = ((await signUp.json()) as { apiKey: { key: string } }).apiKey.key;
    const endpoint = await call('/v1/webhook-endpoints', key, {
      url: `http://127.0.0.1:${receiverPort}/hooks`,
      events: ['*'],
    });
    expect(endpoint.status).toBe(201);
    return { key, endpointId: (endpoint.body as { id: number }).id };
  };
  /** Lists a pet and returns its pet.created event id. */
  const listPet = async (key: string): Promise<string> => {
    expect((await call('/v1/pets', key, { name: 'Faulty', categoryId: 1 })).status).toBe(201);
    return ((await call('/v1/events?type=pet.created&limit=1', key)).body as Array<{ id: string }>)[0]!.id;
  };
  const deliveriesOf = (eventId: string) => deliveries.filter((delivery) => delivery.headers['webhook-id'] === eventId);
  const attempts = async (key: string, endpointId: number) =>
    (await call(`/v1/webhook-endpoints/${endpointId}/deliveries?limit=100`, key)).body as Array<{
      attempt: number;
      status: string;
      error: string | null;
    }>;
  /** Waits for an attempt that succeeded, and returns the log of attempts, oldest first. */
  const untilSucceeded = async (key: string, endpointId: number) => {
    await waitFor(
      async () => (await attempts(key, endpointId)).some((attempt) => attempt.status === 'succeeded'),
      30000,
      'a succeeded attempt',
    );
    return (await attempts(key, endpointId)).reverse();
  };

  beforeAll(async () => {
    [database] = await Promise.all([suiteDatabase('webhook_faults'), redis.create()]);
    receiverPort = await freePort();
    env = {
      ...WEBHOOK_TEST_ENV,
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      WEBHOOK_MAX_ATTEMPTS: '8',
      WEBHOOK_BACKOFF_MS: '200',
    };
    api = await startServing('api', env);
    worker = await startServing('worker', env);
    await startReceiver();
  });
  beforeEach(() => {
    answer = (_delivery, response) => response.writeHead(204).end();
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await api?.stop();
    if (receiver.listening) await stopReceiver();
    await redis.destroy();
    await database?.drop();
  });

  it('delivers to a receiver that was down, once it is back, with the same webhook-id', async () => {
    const { key, endpointId } = await subscriber();
    await stopReceiver();
    const eventId = await listPet(key);
    await waitFor(async () => (await attempts(key, endpointId)).length >= 2, 20000, 'two refused attempts');
    await startReceiver();
    const log = await untilSucceeded(key, endpointId);
    expect(log[0]).toMatchObject({ attempt: 1, status: 'failed', error: expect.stringContaining('ECONNREFUSED') });
    expect(log[log.length - 1]).toMatchObject({ status: 'succeeded' });
    expect(deliveriesOf(eventId).length).toBeGreaterThanOrEqual(1);
    for (const delivery of deliveriesOf(eventId)) expect(delivery.headers['webhook-id']).toBe(eventId);
  });

  it('retries a receiver slower than WEBHOOK_TIMEOUT_MS, with the same webhook-id', async () => {
    const { key, endpointId } = await subscriber();
    let calls = 0;
    // The first answer comes after the timeout; the second at once.
    answer = (_delivery, response) => {
      if (++calls === 1) setTimeout(() => response.writeHead(200).end(), 2500);
      else response.writeHead(200).end();
    };
    const eventId = await listPet(key);
    const log = await untilSucceeded(key, endpointId);
    expect(log[0]).toMatchObject({ attempt: 1, status: 'failed', error: 'no answer within 1000 ms' });
    expect(deliveriesOf(eventId).length).toBeGreaterThanOrEqual(2);
    expect(new Set(deliveriesOf(eventId).map((delivery) => delivery.headers['webhook-id']))).toEqual(
      new Set([eventId]),
    );
  });

  it('retries a receiver answering 500 and later 200, with the same webhook-id', async () => {
    const { key, endpointId } = await subscriber();
    let calls = 0;
    answer = (_delivery, response) => response.writeHead(++calls <= 2 ? 500 : 200).end();
    const eventId = await listPet(key);
    const log = await untilSucceeded(key, endpointId);
    expect(log.map((attempt) => [attempt.attempt, attempt.status])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'succeeded'],
    ]);
    expect(deliveriesOf(eventId)).toHaveLength(3);
  });

  it('loses nothing when the worker is SIGKILLed mid-delivery', async () => {
    const { key, endpointId } = await subscriber();
    // The first delivery is held unanswered while the worker is killed.
    answer = () => undefined;
    const eventId = await listPet(key);
    await waitFor(async () => deliveriesOf(eventId).length === 1, 20000, 'the first delivery');
    await worker!.stop('SIGKILL');
    answer = (_delivery, response) => response.writeHead(204).end();
    worker = await startServing('worker', env);
    const log = await untilSucceeded(key, endpointId);
    expect(log[log.length - 1]).toMatchObject({ status: 'succeeded' });
    expect(deliveriesOf(eventId).length).toBeGreaterThanOrEqual(2);
    for (const delivery of deliveriesOf(eventId)) expect(delivery.headers['webhook-id']).toBe(eventId);
    // The killed worker's attempt was made again by the job's next run: one attempt, nothing left pending.
    expect(await attempts(key, endpointId)).toEqual([expect.objectContaining({ attempt: 1, status: 'succeeded' })]);
  });

  it('delivers the events of changes committed while Redis was down once it is back', async () => {
    const { key } = await subscriber();
    // Changes commit while Redis is down (a process never starts without it, ADR 0037: the worker runs on),
    // and the worker dispatches them meanwhile.
    await redis.kill();
    const events = [await listPet(key), await listPet(key), await listPet(key)];
    const dispatched = () =>
      withDatabase(async (client) => {
        const { rows } = await client.query<{ n: string }>(
          'SELECT count(*) AS n FROM events WHERE id = ANY($1) AND dispatched_at IS NOT NULL',
          [events],
        );
        return Number(rows[0]!.n) === events.length;
      }, database.url);
    await waitFor(dispatched, 20000, 'the events to be dispatched while Redis is down');
    expect(events.flatMap(deliveriesOf)).toHaveLength(0);
    await redis.start();
    await waitFor(
      async () => events.every((eventId) => deliveriesOf(eventId).length >= 1),
      30000,
      'every event to be delivered',
    );
  });
});
