import { Redis } from 'ioredis';
import { Client } from 'pg';
import type { OrderBody } from '../support/orders';
import { AppProcess, startServing, waitFor } from '../support/processes';
import { ThrowawayPostgres, ThrowawayRedis } from '../support/throwaway-services';

const HOLD_SECONDS = 3;
/** At once when a worker that was down starts again. Far above a ready worker's first sweep. */
const BACK_BOUND_MS = 10_000;

/**
 * Hold expiry across a worker outage: placed orders whose hold runs out while no worker runs are
 * cancelled once one starts again, whether their delayed jobs survived in Redis or Redis lost them.
 */
describe('faults: order holds expire across a worker outage, on PostgreSQL and Redis of its own', () => {
  const postgres = new ThrowawayPostgres();
  const redis = new ThrowawayRedis();
  let api: AppProcess & { baseUrl: string };
  let worker: AppProcess | undefined;
  let env: Record<string, string>;
  let lister: string;
  let adopter: string;

  const request = async (key: string, method: string, path: string, body?: object) => {
    const response = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body && { 'Content-Type': 'application/json' }) },
      body: body && JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as OrderBody & { status: string } };
  };
  const signUp = async (email: string) => {
    const response = await fetch(`${api.baseUrl}/v1/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    const { apiKey } = (await response.json()) as { apiKey: { key: string } };
    return { key: apiKey.key };
  };
  /** Places an order for a new pet of the lister; returns it and the pet. */
  const placeHold = async (): Promise<OrderBody> => {
    const pet = await request(lister, 'POST', '/v1/pets', { name: 'Held', categoryId: 2 });
    const placed = await request(adopter, 'POST', '/v1/store/orders', { petId: pet.body.id });
    expect(placed.status).toBe(201);
    return placed.body;
  };
  const orderStatus = async (order: OrderBody) => (await request(adopter, 'GET', `/v1/store/orders/${order.id}`)).body;
  const petStatus = async (order: OrderBody) => (await request(lister, 'GET', `/v1/pets/${order.petId}`)).body.status;
  /**
   * Waits, with no worker running, until every hold has run out by PostgreSQL's clock (the one the
   * expiry compares with), and checks that none was cancelled.
   */
  const outliveHolds = async (orders: OrderBody[]) => {
    const database = new Client({ connectionString: postgres.url });
    await database.connect();
    try {
      const ids = orders.map((order) => order.id);
      const runOut = async () =>
        (
          await database.query('SELECT count(*)::int AS held FROM orders WHERE id = ANY($1) AND expires_at > now()', [
            ids,
          ])
        ).rows[0].held === 0;
      await waitFor(runOut, HOLD_SECONDS * 1000 + BACK_BOUND_MS, 'the holds to run out');
    } finally {
      await database.end();
    }
    for (const order of orders) expect(await orderStatus(order)).toMatchObject({ status: 'placed' });
  };
  const startWorker = async () => {
    worker = await startServing('worker', env);
  };

  beforeAll(async () => {
    await Promise.all([postgres.create(), redis.create()]);
    env = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      ORDER_HOLD_SECONDS: String(HOLD_SECONDS),
      // The sweep at its longest: what a starting worker cancels at once is its first sweep's doing.
      ORDERS_EXPIRY_SWEEP_INTERVAL_MS: '10000',
    };
    api = await startServing('api', { ...env, DATABASE_MIGRATE_ON_START: 'true' });
    lister = (await signUp('orders-faults-lister@example.com')).key;
    adopter = (await signUp('orders-faults-adopter@example.com')).key;
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await Promise.all([postgres.destroy(), redis.destroy()]);
  });

  it('cancels holds that ran out while the worker was stopped, soon after it is back, and frees their pets', async () => {
    // No worker runs yet.
    const orders = [await placeHold(), await placeHold()];
    await outliveHolds(orders);
    for (const order of orders) expect(await petStatus(order)).toBe('pending');

    await startWorker();
    await waitFor(
      async () => (await Promise.all(orders.map(orderStatus))).every((order) => order.status === 'cancelled'),
      BACK_BOUND_MS,
      'the held orders to be cancelled once the worker is back',
    );
    for (const order of orders) {
      expect(await orderStatus(order)).toMatchObject({ status: 'cancelled', cancellationReason: 'expired' });
      expect(await petStatus(order)).toBe('available');
    }
    await worker!.stop();
  });

  it('cancels them as well when Redis lost their jobs during the outage', async () => {
    const orders = [await placeHold(), await placeHold()];
    const client = new Redis(redis.url);
    try {
      await client.flushall();
    } finally {
      client.disconnect();
    }
    await outliveHolds(orders);

    await startWorker();
    await waitFor(
      async () => (await Promise.all(orders.map(orderStatus))).every((order) => order.status === 'cancelled'),
      BACK_BOUND_MS,
      'the sweep to cancel the held orders whose jobs were lost',
    );
    for (const order of orders) expect(await petStatus(order)).toBe('available');
    expect((await request(adopter, 'GET', '/v1/store/inventory')).body).toMatchObject({ pending: 0 });
  });
});
