import { Redis } from 'ioredis';
import { Client } from 'pg';
import { runCli } from '../support/cli';
import { AppProcess, startServing, waitFor } from '../support/processes';
import { ThrowawayPostgres, ThrowawayRedis } from '../support/throwaway-services';

/** A few hundred pets: more than one batch of the erasure. */
const PETS = 300;
/** Past the killed worker's lock on its job (10 s), its takeover, and the erasure of the rest. */
const RESUMED_WITHIN_MS = 60_000;

/**
 * A worker killed in the middle of an account's erasure, with its transaction open: the erasure is neither lost
 * nor undone, and a worker that starts again finishes it, whether Redis kept the job or lost it meanwhile.
 */
describe('faults: an account’s erasure survives a worker killed midway, on PostgreSQL and Redis of its own', () => {
  const postgres = new ThrowawayPostgres();
  const redis = new ThrowawayRedis();
  let api: AppProcess & { baseUrl: string };
  let worker: AppProcess | undefined;
  let env: Record<string, string>;
  let database: Client;

  const call = async (key: string | undefined, method: string, path: string, body?: object) => {
    const response = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { ...(key && { Authorization: `Bearer ${key}` }), 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const account = async (email: string) => {
    const { body } = await call(undefined, 'POST', '/v1/accounts', { email });
    const plan = await runCli(env, 'set-plan', email, 'enterprise');
    if (plan.code !== 0) throw new Error(plan.stderr);
    // The api learns of the plan over pub/sub.
    await waitFor(
      async () => (await call(body.apiKey.key, 'GET', '/v1/account')).body.plan === 'enterprise',
      10_000,
      'the plan',
    );
    return { id: body.account.id as number, key: body.apiKey.key as string, email };
  };
  const count = async (statement: string, accountId: number) =>
    Number((await database.query(statement, [accountId])).rows[0].count);
  const petsLeft = (accountId: number) => count('SELECT count(*) FROM pets WHERE lister_account_id = $1', accountId);
  /** Sessions removing pets, or only those waiting for a lock to. */
  const removals = async (waiting: boolean) =>
    Number(
      (
        await database.query(
          `SELECT count(*) FROM pg_stat_activity
            WHERE query LIKE 'DELETE FROM pets%' AND state = 'active' AND ($1 = false OR wait_event_type = 'Lock')`,
          [waiting],
        )
      ).rows[0].count,
    );
  const erasedAt = async (accountId: number) =>
    (await database.query('SELECT erased_at FROM accounts WHERE id = $1', [accountId])).rows[0]
      .erased_at as Date | null;

  /**
   * A shelter of PETS pets, one of them ordered, deleted; the worker cancels the order, then waits to remove the
   * pets behind a row a test connection holds, and is killed there, its batch's transaction open.
   */
  const killedMidway = async (name: string) => {
    const shelter = await account(`${name}-shelter@example.com`);
    const adopter = await account(`${name}-adopter@example.com`);
    const ids: number[] = [];
    for (let start = 0; start < PETS; start += 50) {
      const batch = Array.from({ length: Math.min(50, PETS - start) }, () =>
        call(shelter.key, 'POST', '/v1/pets', { name: 'Rex', categoryId: 1 }),
      );
      ids.push(...(await Promise.all(batch)).map((created) => created.body.id as number));
    }
    const order = (await call(adopter.key, 'POST', '/v1/store/orders', { petId: ids[0] })).body;
    expect(order.status).toBe('placed');

    const holder = new Client({ connectionString: postgres.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM pets WHERE id = $1 FOR UPDATE', [ids[PETS / 2]]);
    worker = await startServing('worker', env);
    expect((await call(shelter.key, 'DELETE', '/v1/account', { confirm: shelter.email })).status).toBe(202);
    await waitFor(async () => (await removals(true)) === 1, 30_000, 'the erasure to wait for the held pet');
    // Midway: the orders' part has committed, the pets' has not.
    expect((await call(adopter.key, 'GET', `/v1/store/orders/${order.id}`)).body.status).toBe('cancelled');
    await worker.stop('SIGKILL');
    worker = undefined;
    // The killed worker's statement runs on once the row is free, and its transaction is rolled back.
    await holder.query('ROLLBACK');
    await holder.end();
    await waitFor(async () => (await removals(false)) === 0, 30_000, 'the killed worker’s statement to end');
    expect(await petsLeft(shelter.id)).toBe(PETS);
    expect(await erasedAt(shelter.id)).toBeNull();
    return { shelter, adopter, order };
  };

  /** Starts a worker again, and checks that it finishes the erasure, which nothing undid meanwhile. */
  const finished = async ({ shelter, adopter, order }: Awaited<ReturnType<typeof killedMidway>>) => {
    worker = await startServing('worker', env);
    await waitFor(async () => (await erasedAt(shelter.id)) !== null, RESUMED_WITHIN_MS, 'the erasure to finish');
    expect(await petsLeft(shelter.id)).toBe(0);
    expect(await count('SELECT count(*) FROM api_keys WHERE account_id = $1', shelter.id)).toBe(0);
    expect((await call(adopter.key, 'GET', `/v1/store/orders/${order.id}`)).body).toMatchObject({
      status: 'cancelled',
      cancellationReason: 'account_deleted',
    });
    expect((await call(shelter.key, 'GET', '/v1/account')).status).toBe(401);
    expect((await call(undefined, 'POST', '/v1/accounts', { email: shelter.email })).status).toBe(201);
    await worker.stop();
    worker = undefined;
  };

  beforeAll(async () => {
    await Promise.all([postgres.create(), redis.create()]);
    env = { DATABASE_URL: postgres.url, REDIS_URL: redis.url };
    api = await startServing('api', { ...env, DATABASE_MIGRATE_ON_START: 'true' });
    database = new Client({ connectionString: postgres.url });
    await database.connect();
  });
  afterAll(async () => {
    await database?.end();
    // A worker left waiting for a held row would wait through a graceful stop.
    await worker?.stop('SIGKILL');
    await api?.stop();
    await Promise.all([postgres.destroy(), redis.destroy()]);
  });

  it('is taken over from the killed worker’s job and finished, nothing of it undone', async () => {
    await finished(await killedMidway('kept-job'));
  }, 180_000);

  it('is finished by the reconciler of a starting worker when Redis lost the job meanwhile', async () => {
    const killed = await killedMidway('lost-job');
    const client = new Redis(redis.url);
    try {
      await client.flushall();
    } finally {
      client.disconnect();
    }
    await finished(killed);
  }, 180_000);
});
