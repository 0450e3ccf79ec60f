import { Client } from 'pg';
import { AppProcess, startServing, waitFor } from '../support/processes';
import { ThrowawayPostgres, ThrowawayRedis } from '../support/throwaway-services';

interface Answer {
  status: number;
  headers: Headers;
  body: { code?: string; apiKey?: { key: string } } & Record<string, unknown>;
  ms: number;
}

describe('faults: the api against PostgreSQL and Redis of its own', () => {
  const postgres = new ThrowawayPostgres();
  const redis = new ThrowawayRedis();
  let api: AppProcess;
  let base: string;
  let key: string;

  const call = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const started = Date.now();
    const response = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(15000) });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : {},
      ms: Date.now() - started,
    };
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
      expect(answer.ms).toBeLessThan(10000);
    }
    expect((await call('/health/ready')).status).toBe(503);

    await postgres.start();
    await waitFor(async () => (await call('/health/ready')).status === 200, 15000, 'readiness');
    expect((await post('/v1/pets', { name: 'Back', categoryId: 1 }, auth)).status).toBe(201);
  });

  it('answers within the command timeout while Redis is frozen', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    redis.freeze();
    try {
      const answers = await Promise.all(Array.from({ length: 5 }, () => call('/v1/pets?limit=1', { headers: auth })));
      for (const answer of answers) {
        // The limiter fails open (the default policy), the catalogue is in PostgreSQL.
        expect(answer.status).toBe(200);
        expect(answer.ms).toBeLessThan(3000);
      }
      const ready = await call('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.ms).toBeLessThan(5000);
    } finally {
      redis.thaw();
    }
    await waitFor(async () => (await call('/health/ready')).status === 200, 15000, 'readiness');
  });

  it('leaves no half-written rows when the process is killed under load', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    const load = Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        i % 2
          ? post('/v1/accounts', { email: `killed-${i}@example.com` })
          : post('/v1/pets', { name: `Load ${i}`, categoryId: 2 }, auth),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    await api.stop('SIGKILL');
    await load;

    const db = new Client({ connectionString: postgres.url });
    await db.connect();
    try {
      const orphans = await db.query(
        'SELECT count(*)::int AS n FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.account_id = a.id)',
      );
      expect(orphans.rows[0].n).toBe(0);
      const broken = await db.query("SELECT count(*)::int AS n FROM pets WHERE name = '' OR category_id IS NULL");
      expect(broken.rows[0].n).toBe(0);
    } finally {
      await db.end();
    }
    api = await startApi();
    expect((await call('/v1/account', { headers: auth })).status).toBe(200);
  });
});
