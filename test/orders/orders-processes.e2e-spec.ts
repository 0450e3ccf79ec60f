import { EXPIRE_ORDER_JOB, expiryJobId, ORDERS_QUEUE } from '@app/orders';
import type { Queue } from 'bullmq';
import { createApiApp } from '../support/api-app';
import { cli } from '../support/cli';
import { withDatabase } from '../support/database';
import { uniqueEmail } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import type { OrderBody } from '../support/orders';
import { AppProcess, startServing, waitFor } from '../support/processes';
import { together } from '../support/rate-limiting';
import { startWorker } from '../support/messages';
import { testQueue } from '../support/redis';

const CALLERS = 50;
const MAX_OPEN = 3;

interface Answer {
  status: number;
  body: OrderBody & { code?: string };
}

/**
 * Races of the store's transitions with 50 concurrent callers spread over two api processes sharing PostgreSQL and
 * Redis, then hold expiry with a worker process.
 */
describe('orders across processes', () => {
  const apis: AppProcess[] = [];
  const urls: string[] = [];

  /** A request to the api process `i % 2`. */
  const call = async (i: number, key: string, method: string, path: string, body?: object): Promise<Answer> => {
    const response = await fetch(`${urls[i % 2]}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body && { 'Content-Type': 'application/json' }) },
      body: body && JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };
  /** A new account's key; on a plan the races fit in, applied on both processes, when `busy`. */
  const account = async (busy = true): Promise<{ id: number; key: string }> => {
    const email = uniqueEmail('orders-race');
    const response = await fetch(`${urls[0]}/v1/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    const { account: created, apiKey } = (await response.json()) as {
      account: { id: number };
      apiKey: { key: string };
    };
    if (!busy) return { id: created.id, key: apiKey.key };
    await cli('set-plan', email, 'business');
    for (const i of [0, 1]) {
      await waitFor(
        async () =>
          ((await call(i, apiKey.key, 'GET', '/v1/account')).body as unknown as { plan: string }).plan === 'business',
        10_000,
        'both processes to apply the plan',
      );
    }
    return { id: created.id, key: apiKey.key };
  };
  const listPet = async (lister: { id: number; key: string }): Promise<number> => {
    const created = await call(0, lister.key, 'POST', '/v1/pets', { name: 'Racer', categoryId: 1 });
    expect(created.status).toBe(201);
    return created.body.id;
  };
  const petStatus = async (key: string, petId: number) =>
    ((await call(1, key, 'GET', `/v1/pets/${petId}`)).body as unknown as { status: string }).status;
  const statuses = (answers: Answer[]) =>
    answers.map((answer) => `${answer.status} ${answer.body.code ?? answer.body.status}`);
  const count = (answers: Answer[], line: string) => statuses(answers).filter((s) => s === line).length;

  let lister: { id: number; key: string };
  let adopter: { id: number; key: string };

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      // No connection cap: every concurrent request comes from this one address.
      const api = await startServing('api', {
        MAX_CONNECTIONS_PER_CLIENT: '0',
        REDIS_COMMAND_TIMEOUT_MS: '10000',
        ORDERS_MAX_OPEN_PER_ACCOUNT: String(MAX_OPEN),
      });
      apis.push(api);
      urls.push(api.baseUrl);
    }
    lister = await account();
    adopter = await account();
  });
  afterAll(() => Promise.all(apis.map((api) => api.stop())));

  it('places exactly one of 50 concurrent orders for one pet; every other gets 409 pet_not_available', async () => {
    const petId = await listPet(lister);
    // One request each: the Free plan is enough.
    const adopters = await Promise.all(Array.from({ length: CALLERS }, () => account(false)));
    const answers = await together(CALLERS, (i) => call(i, adopters[i]!.key, 'POST', '/v1/store/orders', { petId }));
    expect(count(answers, '201 placed')).toBe(1);
    expect(count(answers, '409 pet_not_available')).toBe(CALLERS - 1);
    const winner = answers.find((answer) => answer.status === 201)!;
    expect(await petStatus(lister.key, petId)).toBe('pending');
    const asLister = await call(0, lister.key, 'GET', `/v1/store/orders?petId=${petId}`);
    expect((asLister.body as unknown as OrderBody[]).map((order) => order.id)).toEqual([winner.body.id]);
  });

  it(`lets one account place at most ${MAX_OPEN} of 50 concurrent orders; the rest get 409 too_many_open_orders`, async () => {
    const placer = await account();
    const pets = await Promise.all(Array.from({ length: CALLERS }, () => listPet(lister)));
    const answers = await together(CALLERS, (i) => call(i, placer.key, 'POST', '/v1/store/orders', { petId: pets[i] }));
    expect(count(answers, '201 placed')).toBe(MAX_OPEN);
    expect(count(answers, '409 too_many_open_orders')).toBe(CALLERS - MAX_OPEN);
    const pending = await Promise.all(pets.map((petId) => petStatus(lister.key, petId)));
    expect(pending.filter((status) => status === 'pending')).toHaveLength(MAX_OPEN);
  });

  /** An order placed by `adopter` for a new pet of `lister`, taken to `approved` when asked. */
  const order = async (approved: boolean): Promise<OrderBody> => {
    const placed = await call(0, adopter.key, 'POST', '/v1/store/orders', { petId: await listPet(lister) });
    expect(placed.status).toBe(201);
    if (!approved) return placed.body;
    const answer = await call(1, lister.key, 'POST', `/v1/store/orders/${placed.body.id}/approve`);
    expect(answer.status).toBe(200);
    return answer.body;
  };
  /** 50 callers at once, alternating two operations (the second by alternating parties) and processes. */
  const race = (orderId: number, first: string, second: string) =>
    together(CALLERS, (i) => {
      const operation = i % 4 < 2 ? first : second;
      const key = operation === second && i % 4 === 3 ? adopter.key : lister.key;
      return call(i, key, 'POST', `/v1/store/orders/${orderId}/${operation}`).then((answer) => ({ operation, answer }));
    });

  it('approve racing cancel of a placed order: cancelled first, or approved then cancelled; the pet ends available', async () => {
    for (let round = 0; round < 3; round++) {
      const placed = await order(false);
      const results = await race(placed.id, 'approve', 'cancel');
      const cancels = results.filter((r) => r.operation === 'cancel').map((r) => r.answer);
      const approves = results.filter((r) => r.operation === 'approve').map((r) => r.answer);
      // A cancellation is allowed from either state, so every one succeeds (the first changes it).
      expect(new Set(statuses(cancels))).toEqual(new Set(['200 cancelled']));
      for (const line of statuses(approves)) expect(['200 approved', '409 invalid_order_state']).toContain(line);
      const final = await call(0, lister.key, 'GET', `/v1/store/orders/${placed.id}`);
      expect(final.body.status).toBe('cancelled');
      expect(await petStatus(lister.key, placed.petId)).toBe('available');
    }
  });

  it('deliver racing cancel of an approved order: exactly one takes effect, the other gets 409; the pet matches', async () => {
    for (let round = 0; round < 3; round++) {
      const approved = await order(true);
      const results = await race(approved.id, 'deliver', 'cancel');
      const final = (await call(0, lister.key, 'GET', `/v1/store/orders/${approved.id}`)).body.status;
      expect(['delivered', 'cancelled']).toContain(final);
      const winner = final === 'delivered' ? 'deliver' : 'cancel';
      for (const { operation, answer } of results) {
        if (operation === winner) expect(`${answer.status} ${answer.body.status}`).toBe(`200 ${final}`);
        else expect(`${answer.status} ${answer.body.code}`).toBe('409 invalid_order_state');
      }
      expect(await petStatus(lister.key, approved.petId)).toBe(final === 'delivered' ? 'sold' : 'available');
    }
  });

  it('keeps the inventory equal to COUNT(*) per status after the races', async () => {
    const counted = await withDatabase(async (client) => {
      const { rows } = await client.query<{ status: string; n: string }>(
        'SELECT status, count(*) AS n FROM pets GROUP BY status',
      );
      return Object.fromEntries(
        ['available', 'pending', 'sold'].map((s) => [s, Number(rows.find((r) => r.status === s)?.n ?? 0)]),
      );
    });
    const inventory = await call(1, adopter.key, 'GET', '/v1/store/inventory');
    expect(inventory.body).toEqual(counted);
  });

  describe('holds that expire, with a worker running', () => {
    const HOLD_SECONDS = 2;
    let app: TestHttpApp;
    let worker: AppProcess;
    let queue: Queue;

    beforeAll(async () => {
      app = await createApiApp({ env: { ORDER_HOLD_SECONDS: String(HOLD_SECONDS) } });
      // The sweep at its longest, so what expires sooner was the delayed job's doing.
      worker = await startWorker({ ORDERS_EXPIRY_SWEEP_INTERVAL_MS: '10000' });
      queue = testQueue(ORDERS_QUEUE);
    });
    afterAll(async () => {
      await queue.close();
      await worker.stop();
      await app.close();
    });

    const placeHeld = async () => {
      const petId = await listPet(lister);
      const placed = await app.http
        .post('/v1/store/orders')
        .set({ Authorization: `Bearer ${adopter.key}` })
        .send({ petId })
        .expect(201);
      return { petId, placed };
    };
    /** The hold's delayed job, once the placing (which does not wait for Redis) has added it. */
    const scheduled = async (orderId: number) => {
      await waitFor(async () => (await queue.getJob(expiryJobId(orderId))) !== undefined, 5000, 'the expiry job');
      return queue.getJob(expiryJobId(orderId));
    };
    const expired = async (placed: OrderBody) => {
      const deadline = Date.parse(placed.expiresAt!) + 10_000 - Date.now();
      let shown: OrderBody | undefined;
      await waitFor(
        async () =>
          (shown = (await call(0, adopter.key, 'GET', `/v1/store/orders/${placed.id}`)).body).status !== 'placed',
        deadline,
        `order ${placed.id} to be cancelled within 10 s of its expiresAt`,
      );
      return shown!;
    };

    it('cancels a placed order when its hold runs out (expired) and frees the pet', async () => {
      const { petId, placed } = await placeHeld();
      expect(await scheduled(placed.body.id)).toMatchObject({ name: EXPIRE_ORDER_JOB });
      const shown = await expired(placed.body);
      expect(shown).toMatchObject({ status: 'cancelled', cancellationReason: 'expired' });
      expect(shown.expiresAt).toBeUndefined();
      expect(await petStatus(lister.key, petId)).toBe('available');
      // Both parties hear of it, each with the order as it sees it.
      for (const [party, role] of [
        [adopter, 'adopter'],
        [lister, 'lister'],
      ] as const) {
        const events = (await call(0, party.key, 'GET', '/v1/events?type=order.cancelled')).body as unknown as Array<{
          data: { object: OrderBody };
        }>;
        expect(events.map((event) => event.data.object)).toContainEqual({ ...shown, role });
      }
    });

    it('cancels a hold whose job was lost, by the sweep', async () => {
      await worker.stop();
      worker = await startWorker({ ORDERS_EXPIRY_SWEEP_INTERVAL_MS: '1000' });
      const { petId, placed } = await placeHeld();
      await scheduled(placed.body.id);
      await queue.remove(expiryJobId(placed.body.id));
      expect(await queue.getJob(expiryJobId(placed.body.id))).toBeUndefined();
      expect(await expired(placed.body)).toMatchObject({ status: 'cancelled', cancellationReason: 'expired' });
      expect(await petStatus(lister.key, petId)).toBe('available');
    });
  });
});
