import { Client } from 'pg';
import { AppProcess, startServing, waitFor } from '../support/processes';
import { ThrowawayPostgres, ThrowawayRedis } from '../support/throwaway-services';

interface Answer {
  status: number;
  headers: Headers;
  body: { code?: string; id?: number; apiKey?: { key: string } } & Record<string, unknown>;
}

/** Far longer than any answer needs: one that takes longer hung, and fails the test saying so. */
const HANG_BOUND_MS = 15_000;

describe('faults: the api against PostgreSQL and Redis of its own', () => {
  const postgres = new ThrowawayPostgres();
  const redis = new ThrowawayRedis();
  let api: AppProcess;
  let base: string;
  let key: string;

  const call = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const response = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(HANG_BOUND_MS) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
  };
  /** A connection to the suite's PostgreSQL, for a test to look at or hold what the api writes. */
  const connect = async () => {
    const client = new Client({ connectionString: postgres.url });
    await client.connect();
    return client;
  };
  const failuresCounted = async (policy: string) => {
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const line = new RegExp(`^rate_limit_redis_failures_total\\{policy="${policy}"[^}]*\\} (\\d+)$`, 'm').exec(metrics);
    return Number(line?.[1] ?? 0);
  };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const startApi = async () => {
    const started = await startServing('api', {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      DATABASE_MIGRATE_ON_START: 'true',
    });
    base = started.baseUrl;
    return started;
  };

  beforeAll(async () => {
    await Promise.all([postgres.create(), redis.create()]);
    api = await startApi();
    key = (await post('/v1/accounts', { email: 'faults@example.com' })).body.apiKey!.key;
  });
  afterAll(async () => {
    await api?.stop('SIGKILL');
    await Promise.all([postgres.destroy(), redis.destroy()]);
  });

  it('answers 503 with Retry-After while PostgreSQL is down, never 500, and recovers without a restart', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    expect((await call('/v1/pets', { headers: auth })).status).toBe(200);
    await postgres.stop();

    // A key never seen before cannot come from the cache: checking it needs PostgreSQL.
    const unknownKey = { Authorization: 'Bearer pet_test_unknownkeyunknownkeyunknownkey00' };
    const answers = await Promise.all([
      post('/v1/accounts', { email: 'while-down@example.com' }),
      post('/v1/pets', { name: 'Rex', categoryId: 1 }, auth),
      call('/v1/pets?limit=5', { headers: unknownKey }),
      // Refused before any route's guard ran: the rate limiter still checks the key.
      call('/v1/no-such-route', { headers: unknownKey }),
      call('/v1/pets', { method: 'POST', headers: { ...unknownKey, 'Content-Type': 'application/json' }, body: '{' }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ code: 'service_unavailable', status: 503 });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await call('/health/ready')).status).toBe(503);

    await postgres.start();
    await waitFor(async () => (await call('/health/ready')).status === 200, 15000, 'readiness');
    expect((await post('/v1/pets', { name: 'Back', categoryId: 1 }, auth)).status).toBe(201);
  });

  it('gives up on a frozen Redis: serves the catalogue by the fail-open policy and reports not ready', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    const failuresBefore = await failuresCounted('open');
    redis.freeze();
    try {
      const answers = await Promise.all(Array.from({ length: 5 }, () => call('/v1/pets?limit=1', { headers: auth })));
      for (const answer of answers) {
        // The limiter's command timed out and the request was admitted uncounted: the catalogue is in PostgreSQL.
        expect(answer.status).toBe(200);
        expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
      }
      expect(await failuresCounted('open')).toBeGreaterThanOrEqual(failuresBefore + 5);
      const ready = await call('/health/ready');
      expect(ready.status).toBe(503);
    } finally {
      redis.thaw();
    }
    await waitFor(async () => (await call('/health/ready')).status === 200, 15000, 'readiness');
  });

  it('leaves no half-written sign-up, and loses no answered pet, when the process is killed mid-write', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    // Sign-ups write their account, then wait at this lock to write their key: killed there, they
    // must leave nothing behind. Pets are created meanwhile, some answered before the kill.
    const gate = await connect();
    await gate.query('BEGIN; LOCK TABLE api_keys IN SHARE MODE');
    const emails = Array.from({ length: 10 }, (_, i) => `killed-${i}@example.com`);
    const signUps = Promise.allSettled(emails.map((email) => post('/v1/accounts', { email })));
    const pets = Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => post('/v1/pets', { name: `Load ${i}`, categoryId: 2 }, auth)),
    );
    const waitingAtGate = async () =>
      (
        await gate.query(
          "SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'api_keys'::regclass",
        )
      ).rows[0].n as number;
    await waitFor(async () => (await waitingAtGate()) >= emails.length, 15000, 'every sign-up to wait for its key');
    const inFlight = await gate.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts WHERE email = ANY($1)', [
      emails,
    ]);
    // Uncommitted, so invisible here: the accounts are written but not yet theirs to keep.
    expect(inFlight.rows[0]!.n).toBe(0);

    await api.stop('SIGKILL');
    await gate.query('COMMIT');
    await gate.end();
    const [signedUp, created] = await Promise.all([signUps, pets]);
    expect(signedUp.every((answer) => answer.status === 'rejected')).toBe(true);

    const db = await connect();
    try {
      // Each killed sign-up's backend notices that its client is gone and rolls back.
      await waitFor(
        async () =>
          (
            await db.query(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
            )
          ).rows[0].n === 0,
        15000,
        'the killed api’s connections to end',
      );
      const accounts = await db.query('SELECT count(*)::int AS n FROM accounts WHERE email = ANY($1)', [emails]);
      expect(accounts.rows[0].n).toBe(0);
      const orphans = await db.query(
        'SELECT count(*)::int AS n FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.account_id = a.id)',
      );
      expect(orphans.rows[0].n).toBe(0);
      const answered = created
        .filter((answer) => answer.status === 'fulfilled' && answer.value.status === 201)
        .map((answer) => (answer as PromiseFulfilledResult<Answer>).value.body.id!);
      const stored = await db.query('SELECT id FROM pets WHERE id = ANY($1)', [answered]);
      const byId = (a: number, b: number) => a - b;
      expect(stored.rows.map((row) => Number(row.id)).sort(byId)).toEqual(answered.sort(byId));
    } finally {
      await db.end();
    }
    api = await startApi();
    expect((await call('/v1/account', { headers: auth })).status).toBe(200);
  });
});
