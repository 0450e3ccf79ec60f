import { unpreparedSuiteDatabase } from '../support/database';
import { AppProcess, onFreePorts, startCompiled, startServing, waitFor } from '../support/processes';
import { PRODUCTION_ENV, singleRedisAt } from '../support/test-env';
import { ThrowawayRedis } from '../support/throwaway-services';

/** Whether anything answers HTTP at `url` (a stopped process leaves the connection refused). */
const answers = (url: string) =>
  fetch(url).then(
    () => true,
    () => false,
  );

describe('npm start: the launcher of every app', () => {
  let launcher: AppProcess;
  let urls: string[];
  // A first start's: a database it creates and an empty Redis, not what the other suites left to work on.
  const database = unpreparedSuiteDatabase('launcher');
  const redis = new ThrowawayRedis();

  beforeAll(async () => {
    await Promise.all([database.drop(), redis.create()]);
    launcher = await onFreePorts(3, async (api, messages, worker) => {
      urls = [api, messages, worker].map((port) => `http://127.0.0.1:${port}`);
      // At development's default level, as a first `npm start` logs.
      const env = {
        PORT: String(api),
        MESSAGES_PORT: String(messages),
        WORKER_METRICS_PORT: String(worker),
        LOG_LEVEL: 'debug',
        DATABASE_URL: database.url,
        DATABASE_MIGRATE_ON_START: 'true',
        ...singleRedisAt(redis.url),
      };
      const started = await startCompiled('scripts/start-all.js', env);
      try {
        const ready = async () =>
          (await Promise.all(urls.map(async (url) => (await fetch(`${url}/health/ready`)).ok))).every(Boolean);
        // An exit ends the wait at once, rather than at the timeout.
        const exited = () => started.child.exitCode !== null;
        await waitFor(async () => exited() || ready(), 60_000, 'the api, the messages app and the worker to be ready');
        if (exited()) throw new Error(`the launcher exited:\n${started.output()}`);
      } catch (error) {
        // SIGTERM, which the launcher passes on: a killed launcher would leave its apps running.
        await started.stop('SIGTERM');
        throw error;
      }
      return started;
    });
  });
  afterAll(async () => {
    await launcher?.stop('SIGTERM');
    await Promise.all([database.drop(), redis.destroy()]);
  });

  it('runs the api, the messages app and the worker, each on its own port', async () => {
    const [api, messages] = urls;
    expect((await fetch(`${api}/v1/categories`)).status).toBe(401);
    expect((await fetch(`${messages}/messages`, { method: 'POST' })).status).toBe(401);
    // The api serves no messages, the messages app no catalogue.
    expect((await fetch(`${api}/messages`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${messages}/v1/categories`)).status).toBe(404);
  });

  it('starts quietly: a line per app says where it listens, Nest’s wiring and TypeORM’s warnings stay out', () => {
    const [api, messages] = urls.map((url) => new URL(url).port);
    const messagesLogged = launcher.logLines().map((line) => line.msg);
    expect(messagesLogged).toEqual(
      expect.arrayContaining([
        `api listening on http://localhost:${api} (Swagger UI at /docs)`,
        `messages listening on http://localhost:${messages} (Swagger UI at /docs)`,
        'worker running: delivering messages and webhooks, expiring order holds',
      ]),
    );
    expect(launcher.output()).not.toMatch(/InstanceLoader|RoutesResolver|RouterExplorer|already registered/);
    // What a first start prints beside a line per migration applied, whatever the apps log at debug: far from
    // the 192 lines it used to be.
    const lines = launcher.output().trim().split('\n');
    expect(lines.filter((line) => !line.includes('applied migration')).length).toBeLessThan(10);
  });

  it('stops every app on SIGTERM, and exits', async () => {
    await launcher.stop('SIGTERM');
    expect(launcher.child.exitCode).toBe(0);
    await waitFor(
      async () => !(await Promise.all(urls.map(answers))).some(Boolean),
      15_000,
      'every app to stop listening',
    );
  });
});

describe('a bad setting of any context', () => {
  it.each([
    [
      'scripts/start-all.js',
      { WORKER_METRICS_PORT: 'x', RATE_LIMIT_BAN_AFTER: '0' },
      ['WORKER_METRICS_PORT', 'RATE_LIMIT_BAN_AFTER'],
    ],
    [
      'apps/api/src/main.js',
      { ADMIN_TOKEN: 'short', HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '2000' },
      ['ADMIN_TOKEN', 'REQUEST_TIMEOUT_MS'],
    ],
    [
      'apps/messages/src/main.js',
      { MESSAGES_TRANSPORT: 'webhook', API_KEY_CACHE_TTL_MS: '-1' },
      ['MESSAGES_WEBHOOK_URL', 'API_KEY_CACHE_TTL_MS'],
    ],
    [
      'apps/worker/src/main.js',
      { WORKER_CONCURRENCY: '0', IDEMPOTENCY_PURGE_INTERVAL_MS: '5', APP_ENV: 'production', WEBHOOK_SECRETS_KEY: '' },
      ['WORKER_CONCURRENCY', 'IDEMPOTENCY_PURGE_INTERVAL_MS', 'WEBHOOK_SECRETS_KEY'],
    ],
  ])('stops %s before it starts, with one message naming each', async (entry, env, named) => {
    const started = await startCompiled(entry, env);
    try {
      await waitFor(async () => started.child.exitCode !== null, 15_000, `${entry} to exit`);
    } finally {
      await started.stop();
    }
    expect(started.child.exitCode).toBe(1);
    const output = started.output();
    expect(output.match(/Invalid configuration:/g)).toHaveLength(1);
    for (const name of named) expect(output).toMatch(new RegExp(`^ {2}${name}=`, 'm'));
    // A message, not a stack trace.
    expect(output).not.toMatch(/^\s+at /m);
  });
});

describe('log level by APP_ENV, when LOG_LEVEL is not set', () => {
  it.each(['production', 'staging'])('logs each request at info in %s', async (appEnv) => {
    const api = await startServing('api', { ...PRODUCTION_ENV, APP_ENV: appEnv, LOG_LEVEL: undefined }, '/health/live');
    try {
      await fetch(`${api.baseUrl}/v1/categories`, { headers: { 'X-Request-Id': `level-${appEnv}` } });
      await waitFor(
        async () => api.logLines().some((line) => line.requestId === `level-${appEnv}`),
        5000,
        'the request’s log line',
      );
      expect(api.logLines().find((line) => line.requestId === `level-${appEnv}`)).toMatchObject({ level: 30 });
    } finally {
      await api.stop();
    }
  });

  it('logs no request line when LOG_LEVEL says warn', async () => {
    const api = await startServing('api', { ...PRODUCTION_ENV, LOG_LEVEL: 'warn' }, '/health/live');
    try {
      await fetch(`${api.baseUrl}/v1/categories`, { headers: { 'X-Request-Id': 'level-warn' } });
    } finally {
      // Stopping flushes what the logger still holds.
      await api.stop();
    }
    expect(api.logLines().filter((line) => line.requestId === 'level-warn')).toEqual([]);
    expect(api.logLines().every((line) => (line.level as number) >= 40)).toBe(true);
  });
});
