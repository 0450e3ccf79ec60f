import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, Server, Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createApiApp } from './support/api-app';
import { signUp, TestAccount, uniqueEmail } from './support/factories';
import type { TestHttpApp } from './support/http-app';
import { AppProcess, freePort, startApp, waitFor } from './support/processes';
import { together, windowWithRoom } from './support/rate-limiting';

const DIST = process.env.TEST_DIST_DIR ?? join(__dirname, '..', 'dist');
/** Well above REDIS_COMMAND_TIMEOUT_MS (500 ms) and the 2 s connect timeout: "does not hang". */
const ANSWER_BOUND_MS = 3000;

/** The operator CLI, as `npm run cli -- …` runs it. */
async function cli(...args: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(DIST, 'apps', 'cli', 'src', 'main.js'), ...args],
    {
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  return JSON.parse(stdout);
}

async function timed<T>(call: () => PromiseLike<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await call();
  return { result, ms: Date.now() - started };
}

/** Accepts connections and never answers: a frozen Redis. */
async function blackHole(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

describe('rate limiting across processes and outages', () => {
  describe('two api processes sharing PostgreSQL and Redis', () => {
    const urls: string[] = [];
    const processes: AppProcess[] = [];

    beforeAll(async () => {
      for (let i = 0; i < 2; i++) {
        const port = await freePort();
        urls.push(`http://127.0.0.1:${port}`);
        // No ban: every refusal must be a plain rate_limited to count them. A generous Redis timeout:
        // on a loaded machine a timed-out decision would be admitted by the fail-open policy, uncounted.
        // No connection cap: the hundreds of concurrent requests all come from this one address.
        const env = {
          PORT: String(port),
          RATE_LIMIT_BAN_AFTER: '100000',
          REDIS_COMMAND_TIMEOUT_MS: '10000',
          MAX_CONNECTIONS_PER_CLIENT: '0',
        };
        processes.push(await startApp('api', env, `${urls[i]}/health/ready`));
      }
    });
    afterAll(() => Promise.all(processes.map((app) => app.stop())));

    it('admit exactly the plan’s limit of 700 concurrent requests for one account, set with the operator CLI', async () => {
      const email = uniqueEmail('rl-processes');
      const signedUp = await fetch(`${urls[0]}/v1/accounts`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      const { apiKey } = (await signedUp.json()) as { apiKey: { key: string } };
      expect(await cli('set-plan', email, 'pro')).toMatchObject({ plan: 'pro' });

      await windowWithRoom(60, 20_000);
      const responses = await together(700, async (i) => {
        const response = await fetch(`${urls[i % 2]}/v1/account`, {
          headers: { Authorization: `Bearer ${apiKey.key}` },
        });
        return {
          status: response.status,
          headers: response.headers,
          body: (await response.json()) as { code?: string },
        };
      });

      const admitted = responses.filter((response) => response.status === 200);
      const refused = responses.filter((response) => response.status !== 200);
      expect(admitted).toHaveLength(300);
      expect(new Set(refused.map((response) => `${response.status} ${response.body.code}`))).toEqual(
        new Set(['429 rate_limited']),
      );
      // One shared counter: every remaining count from 299 down to 0 was handed out exactly once.
      const remaining = admitted.map((response) => Number(response.headers.get('x-ratelimit-remaining')));
      expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    });
  });

  describe('when Redis cannot be reached', () => {
    let healthy: TestHttpApp;
    let account: TestAccount;

    beforeAll(async () => {
      healthy = await createApiApp();
      account = await signUp(healthy.http);
    });
    afterAll(() => healthy.close());

    const failuresCounted = async (app: TestHttpApp, policy: string) => {
      const metrics = (await app.http.get('/metrics').expect(200)).text;
      const line = new RegExp(`^rate_limit_redis_failures_total\\{policy="${policy}"[^}]*\\} (\\d+)$`, 'm').exec(
        metrics,
      );
      return Number(line?.[1] ?? 0);
    };

    it('fails open by default: admits without rate-limit headers, promptly, and counts the failures', async () => {
      const app = await createApiApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
      try {
        const before = await failuresCounted(app, 'open');
        const { result: admitted, ms } = await timed(() => app.http.get('/v1/account').set(account.auth));
        expect(admitted.status).toBe(200);
        expect(admitted.body).toMatchObject({ id: account.accountId });
        expect(admitted.headers['x-ratelimit-limit']).toBeUndefined();
        expect(ms).toBeLessThan(ANSWER_BOUND_MS);
        const anonymous = await app.http.get('/v1/pets').expect(401);
        expect(anonymous.body).toMatchObject({ code: 'unauthorized' });
        expect(await failuresCounted(app, 'open')).toBe(before + 2);
      } finally {
        await app.close();
      }
    });

    it('fails closed when configured: 503 service_unavailable with Retry-After, promptly', async () => {
      const app = await createApiApp({
        env: { REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_ON_REDIS_FAILURE: 'closed' },
      });
      try {
        const before = await failuresCounted(app, 'closed');
        for (const call of [() => app.http.get('/v1/account').set(account.auth), () => app.http.get('/v1/pets')]) {
          const { result, ms } = await timed(call);
          expect(result.status).toBe(503);
          expect(result.body).toEqual({ code: 'service_unavailable', message: expect.any(String), status: 503 });
          expect(Number(result.headers['retry-after'])).toBeGreaterThan(0);
          expect(ms).toBeLessThan(ANSWER_BOUND_MS);
        }
        expect(await failuresCounted(app, 'closed')).toBe(before + 2);
      } finally {
        await app.close();
      }
    });

    it('does not hang on a Redis that accepts connections but never answers', async () => {
      const frozen = await blackHole();
      const app = await createApiApp({
        env: { REDIS_URL: `redis://127.0.0.1:${frozen.port}`, RATE_LIMIT_ON_REDIS_FAILURE: 'closed' },
      });
      try {
        const { result, ms } = await timed(() => app.http.get('/v1/account').set(account.auth));
        expect(result.status).toBe(503);
        expect(result.body).toMatchObject({ code: 'service_unavailable' });
        expect(ms).toBeLessThan(ANSWER_BOUND_MS);
      } finally {
        await app.close();
        await frozen.close();
      }
    });

    it('fails open from a real process too, with one warning per interval rather than one per request', async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const env = { PORT: String(port), REDIS_URL: 'redis://127.0.0.1:1', LOG_LEVEL: 'warn' };
      const api = await startApp('api', env, `${url}/health/live`);
      try {
        for (let i = 0; i < 5; i++) {
          const { result, ms } = await timed(() => fetch(`${url}/v1/account`, { headers: account.auth }));
          expect(result.status).toBe(200);
          expect(result.headers.get('x-ratelimit-limit')).toBeNull();
          expect(ms).toBeLessThan(ANSWER_BOUND_MS);
        }
        // The log line travels through a pipe: wait until it has arrived, then count.
        await waitFor(async () => api.output().includes('Redis unavailable for rate limiting'), 5000, 'the warning');
        expect(api.output().match(/Redis unavailable for rate limiting/g)).toHaveLength(1);
      } finally {
        await api.stop();
      }
    });
  });
});
