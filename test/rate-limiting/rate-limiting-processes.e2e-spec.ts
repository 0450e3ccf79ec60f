import { blackHole, TcpProxy } from '../../bench/support/tcp-proxy';
import { createApiApp } from '../support/api-app';
import { cli } from '../support/cli';
import { signUp, TestAccount, uniqueEmail } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { AppProcess, startServing, waitFor } from '../support/processes';
import { together, windowWithRoom } from '../support/rate-limiting';
import { TEST_REDIS_URL } from '../support/test-env';
import { describeOnOneRedis } from '../support/redis-suites';

/**
 * Far above REDIS_COMMAND_TIMEOUT_MS and the connect timeout: an answer that takes longer means the
 * request hung, and fails with this bound's message instead of the test's timeout. Not a speed check.
 */
const HANG_BOUND_MS = 15_000;

describe('rate limiting across processes and outages', () => {
  describe('two api processes sharing PostgreSQL and Redis', () => {
    const urls: string[] = [];
    const processes: AppProcess[] = [];

    beforeAll(async () => {
      for (let i = 0; i < 2; i++) {
        // No ban: every refusal must be a plain rate_limited to count them. A generous Redis timeout:
        // on a loaded machine a timed-out decision would be admitted by the fail-open policy, uncounted.
        // Cached keys outlive the suite, so only an announced change can refresh a process's view.
        // No connection cap: the hundreds of concurrent requests all come from this one address.
        const env = {
          RATE_LIMIT_BAN_AFTER: '100000',
          REDIS_COMMAND_TIMEOUT_MS: '10000',
          API_KEY_CACHE_TTL_MS: '600000',
          MAX_CONNECTIONS_PER_CLIENT: '0',
        };
        const api = await startServing('api', env);
        processes.push(api);
        urls.push(api.baseUrl);
      }
    });
    afterAll(() => Promise.all(processes.map((app) => app.stop())));

    /** Signs up on the api at `url`; returns the account's first key. */
    const signUpOn = async (url: string, email: string) => {
      const signedUp = await fetch(`${url}/v1/accounts`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      return ((await signedUp.json()) as { apiKey: { key: string } }).apiKey;
    };

    it('enforce a plan set with the operator CLI on a process that had cached the old one', async () => {
      const email = uniqueEmail('rl-plan');
      const apiKey = await signUpOn(urls[0]!, email);
      const onSecond = () => fetch(`${urls[1]}/v1/account`, { headers: { Authorization: `Bearer ${apiKey.key}` } });
      await windowWithRoom(60, 30_000);
      // The second process now holds the key, and the Free plan with it, in its cache.
      expect((await onSecond()).headers.get('x-ratelimit-limit')).toBe('60');

      expect(await cli('set-plan', email, 'enterprise', '--per-minute', '20', '--per-day', '1000')).toMatchObject({
        plan: 'enterprise',
      });

      let last = await onSecond();
      await waitFor(
        async () => (last = await onSecond()).headers.get('x-ratelimit-limit') === '20',
        10_000,
        'the second api process to apply the new plan (X-RateLimit-Limit: 20)',
      );
      for (let remaining = Number(last.headers.get('x-ratelimit-remaining')); remaining > 0; remaining--) {
        const admitted = await onSecond();
        expect(admitted.status).toBe(200);
        expect(admitted.headers.get('x-ratelimit-remaining')).toBe(String(remaining - 1));
      }
      const refused = await onSecond();
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
      expect(refused.headers.get('x-ratelimit-limit')).toBe('20');
    });

    it('admit exactly the plan’s limit of 700 concurrent requests for one account, set with the operator CLI', async () => {
      const email = uniqueEmail('rl-processes');
      const apiKey = await signUpOn(urls[0]!, email);
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

  describeOnOneRedis('when Redis cannot be reached', () => {
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

    it('fails open by default: admits without rate-limit headers and counts the failures', async () => {
      const app = await createApiApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
      try {
        const before = await failuresCounted(app, 'open');
        const admitted = await app.http.get('/v1/account').set(account.auth).timeout(HANG_BOUND_MS);
        expect(admitted.status).toBe(200);
        expect(admitted.body).toMatchObject({ id: account.accountId });
        expect(admitted.headers['x-ratelimit-limit']).toBeUndefined();
        const anonymous = await app.http.get('/v1/pets').expect(401);
        expect(anonymous.body).toMatchObject({ code: 'unauthorized' });
        expect(await failuresCounted(app, 'open')).toBe(before + 2);
      } finally {
        await app.close();
      }
    });

    it('fails closed when configured: 503 service_unavailable with Retry-After', async () => {
      const app = await createApiApp({
        env: { REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_ON_REDIS_FAILURE: 'closed' },
      });
      try {
        const before = await failuresCounted(app, 'closed');
        for (const call of [() => app.http.get('/v1/account').set(account.auth), () => app.http.get('/v1/pets')]) {
          const result = await call().timeout(HANG_BOUND_MS);
          expect(result.status).toBe(503);
          expect(result.body).toEqual({ code: 'service_unavailable', message: expect.any(String), status: 503 });
          expect(Number(result.headers['retry-after'])).toBeGreaterThan(0);
        }
        expect(await failuresCounted(app, 'closed')).toBe(before + 2);
      } finally {
        await app.close();
      }
    });

    it('gives up on a Redis that accepts connections but never answers, and refuses as configured', async () => {
      const frozen = await blackHole();
      const app = await createApiApp({
        env: {
          REDIS_URL: `redis://127.0.0.1:${frozen.port}`,
          RATE_LIMIT_ON_REDIS_FAILURE: 'closed',
          REDIS_COMMAND_TIMEOUT_MS: '500',
        },
      });
      try {
        const before = await failuresCounted(app, 'closed');
        const result = await app.http.get('/v1/account').set(account.auth).timeout(HANG_BOUND_MS);
        expect(result.status).toBe(503);
        expect(result.body).toMatchObject({ code: 'service_unavailable' });
        expect(await failuresCounted(app, 'closed')).toBe(before + 1);
      } finally {
        await app.close();
        await frozen.close();
      }
    });

    it('fails open from a real process too, with one warning per interval rather than one per request', async () => {
      // A process refuses to start without Redis (ADR 0037), so Redis goes away after the start: the
      // process reaches it through a relay that the test then cuts.
      const proxy = new TcpProxy(Number(new URL(TEST_REDIS_URL).port || 6379));
      const viaProxy = new URL(TEST_REDIS_URL);
      viaProxy.port = String(await proxy.start());
      let api: (AppProcess & { baseUrl: string }) | undefined;
      try {
        api = await startServing('api', { REDIS_URL: viaProxy.toString(), LOG_LEVEL: 'warn' });
        const base = api.baseUrl;
        const getAccount = () =>
          fetch(`${base}/v1/account`, { headers: account.auth, signal: AbortSignal.timeout(HANG_BOUND_MS) });
        // Redis answers through the relay: the request is counted.
        const counted = await getAccount();
        expect(counted.status).toBe(200);
        expect(counted.headers.get('x-ratelimit-limit')).not.toBeNull();

        await proxy.cut();
        for (let i = 0; i < 5; i++) {
          const result = await getAccount();
          expect(result.status).toBe(200);
          expect(result.headers.get('x-ratelimit-limit')).toBeNull();
        }
        // The log line travels through a pipe: wait until it has arrived, then count.
        const { output } = api;
        await waitFor(async () => output().includes('Redis unavailable for rate limiting'), 5000, 'the warning');
        expect(output().match(/Redis unavailable for rate limiting/g)).toHaveLength(1);
      } finally {
        await api?.stop();
        await proxy.cut();
      }
    });
  });
});
