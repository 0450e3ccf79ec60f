import { Client } from 'pg';
import { AppProcess, startServing, waitFor } from '../support/processes';
import { ThrowawayPostgres, ThrowawayRedis } from '../support/throwaway-services';

/** Within 60 seconds; a worker back from a fault has the whole of it. */
const ALERT_BOUND_MS = 60_000;
const PETS = 60;
/** Of those, the pets that stop matching and match again: each alerts twice. */
const REMATCHED = 20;

interface Alert {
  data: { object: { savedSearchId: string; pet: { id: number } } };
}

/**
 * Alerts exactly once per transition whatever fails: the matcher's batch is stalled mid-transaction (its
 * events claimed and its pets' states written, a lock keeping it from recording its alerts), then its worker
 * is killed, or PostgreSQL is stopped and started again under it. The batch rolls back whole, and the next
 * worker matches it again.
 */
describe('faults: saved-search alerts across a killed worker and a PostgreSQL restart', () => {
  const postgres = new ThrowawayPostgres();
  const redis = new ThrowawayRedis();
  let api: AppProcess & { baseUrl: string };
  let worker: (AppProcess & { baseUrl: string }) | undefined;
  let env: Record<string, string>;

  const request = async (key: string, method: string, path: string, body?: object) => {
    const response = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body && { 'Content-Type': 'application/json' }) },
      body: body && JSON.stringify(body),
    });
    return (await response.json()) as Record<string, unknown> & { id: number };
  };
  const signUp = async (email: string) => {
    const response = await fetch(`${api.baseUrl}/v1/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    const { account, apiKey } = (await response.json()) as { account: { id: number }; apiKey: { key: string } };
    // Above the free plan's 60 requests a minute, which listing and changing the pets would exceed.
    const client = new Client({ connectionString: postgres.url });
    await client.connect();
    await client
      .query(`UPDATE accounts SET plan = 'enterprise' WHERE id = ${Number(account.id)}`)
      .finally(() => client.end());
    return apiKey.key;
  };
  /** Every saved_search.matched event of the account, however many pages. */
  const alerts = async (key: string): Promise<Alert[]> => {
    const all: Alert[] = [];
    let path: string | undefined = '/v1/events?type=saved_search.matched&limit=100';
    while (path) {
      const response: Response = await fetch(`${api.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
      all.push(...((await response.json()) as Alert[]));
      path = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1]?.replace(/^.*?(\/v1\/)/, '/v1/');
    }
    return all;
  };
  /**
   * Holds the alerts' table until `release`, so that the next batch stalls at the statement that finds and
   * records its alerts, its events claimed and its pets' states written.
   */
  const stallMatching = async () => {
    const client = new Client({ connectionString: postgres.url });
    await client.connect();
    client.on('error', () => undefined);
    await client.query('BEGIN');
    await client.query('LOCK TABLE saved_search_alerts IN SHARE MODE');
    return {
      release: () => client.query('COMMIT').finally(() => client.end()),
      /**
       * Whether the alerts' statement waits for a lock (known by its start: pg_stat_activity cuts a long
       * statement's text short). Asked on a connection of its own: a transaction reads the server's
       * activity as it was at its first look.
       */
      waiting: async () => {
        const observer = new Client({ connectionString: postgres.url });
        await observer.connect();
        try {
          const { rows } = await observer.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_stat_activity
              WHERE wait_event_type = 'Lock' AND query LIKE 'WITH states AS MATERIALIZED%'`,
          );
          return Number(rows[0]!.n) > 0;
        } finally {
          await observer.end();
        }
      },
      end: () => client.end().catch(() => undefined),
    };
  };
  /** Lists pets matching `tag`; some stop matching and match again; all before a matcher sees them. */
  const changes = async (lister: string, tag: string) => {
    const pets: number[] = [];
    for (let i = 0; i < PETS; i++)
      pets.push((await request(lister, 'POST', '/v1/pets', { name: `P${i}`, categoryId: 1, tags: [tag] })).id);
    for (const id of pets.slice(0, REMATCHED)) {
      await request(lister, 'PATCH', `/v1/pets/${id}`, { tags: ['elsewhere'] });
      await request(lister, 'PATCH', `/v1/pets/${id}`, { tags: [tag] });
    }
    return pets;
  };
  /** Each pet's alerts: one each, two for those that matched again. */
  const expectExactlyOnce = async (adopter: string, pets: number[]) => {
    await waitFor(
      async () => (await alerts(adopter)).length >= PETS + REMATCHED,
      ALERT_BOUND_MS,
      'every transition’s alert',
    );
    const counts = new Map<number, number>();
    for (const alert of await alerts(adopter)) {
      const id = alert.data.object.pet.id;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect(pets.map((id) => counts.get(id) ?? 0)).toEqual(pets.map((_, index) => (index < REMATCHED ? 2 : 1)));
    expect([...counts.values()].reduce((sum, count) => sum + count, 0)).toBe(PETS + REMATCHED);
  };

  beforeAll(async () => {
    await Promise.all([postgres.create(), redis.create()]);
    env = { DATABASE_URL: postgres.url, REDIS_URL: redis.url, SAVED_SEARCH_MATCH_INTERVAL_MS: '100' };
    api = await startServing('api', { ...env, DATABASE_MIGRATE_ON_START: 'true' });
  });
  afterEach(async () => {
    await worker?.stop('SIGKILL');
    worker = undefined;
  });
  afterAll(async () => {
    await api?.stop();
    await Promise.all([postgres.destroy(), redis.destroy()]);
  });

  // Each test starts processes and waits up to ALERT_BOUND_MS twice.
  jest.setTimeout(4 * ALERT_BOUND_MS);

  it('alerts once per transition when the worker is killed mid-batch', async () => {
    const [lister, adopter] = [await signUp('killed-lister@example.com'), await signUp('killed-adopter@example.com')];
    await request(adopter, 'POST', '/v1/saved-searches', { query: 'tag=killed' });
    const pets = await changes(lister, 'killed');

    const stall = await stallMatching();
    worker = await startServing('worker', env);
    await waitFor(stall.waiting, ALERT_BOUND_MS, 'a batch to stall at its alerts');
    await worker.stop('SIGKILL');
    await stall.release();

    worker = await startServing('worker', env);
    await expectExactlyOnce(adopter, pets);
  });

  it('alerts once per transition when PostgreSQL restarts mid-batch', async () => {
    const [lister, adopter] = [await signUp('restart-lister@example.com'), await signUp('restart-adopter@example.com')];
    await request(adopter, 'POST', '/v1/saved-searches', { query: 'tag=restarted' });
    const pets = await changes(lister, 'restarted');

    const stall = await stallMatching();
    worker = await startServing('worker', env);
    await waitFor(stall.waiting, ALERT_BOUND_MS, 'a batch to stall at its alerts');
    await postgres.stop();
    await stall.end();
    await postgres.start();

    await expectExactlyOnce(adopter, pets);
  });
});
