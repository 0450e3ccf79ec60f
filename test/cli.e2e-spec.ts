import { createApiApp } from './support/api-app';
import { runCli } from './support/cli';
import { withDatabase } from './support/database';
import { uniqueEmail } from './support/factories';
import type { TestHttpApp } from './support/http-app';
import { freePort, waitFor } from './support/processes';
import { TEST_DATABASE_URL } from './support/test-env';
import { itOnOneRedis } from './support/redis-suites';

const cli = (...args: string[]) => runCli({}, ...args);
const cliWith = runCli;

describe('operator CLI', () => {
  let app: TestHttpApp;

  beforeAll(async () => {
    app = await createApiApp();
  });
  afterAll(() => app.close());

  it('creates an account whose key works on the API', async () => {
    const email = uniqueEmail('cli');
    const result = await cli('create-account', email);
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout);
    expect(created).toMatchObject({ email, key: expect.stringMatching(/^pet_test_/) });
    const account = await app.http.get('/v1/account').set('Authorization', `Bearer ${created.key}`).expect(200);
    expect(account.body.email).toBe(email);
  });

  it('sets a custom enterprise plan, which an api process that had cached the key enforces within seconds', async () => {
    const email = uniqueEmail('cli-plan');
    const { key } = JSON.parse((await cli('create-account', email)).stdout);
    const auth = { Authorization: `Bearer ${key}` };
    // The key is now cached in the api, with the Free plan's limits.
    const before = await app.http.get('/v1/account').set(auth).expect(200);
    expect(before.headers['x-ratelimit-limit']).toBe('60');

    const result = await cli('set-plan', email, 'enterprise', '--per-minute', '12000', '--per-day', '5000000');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ plan: 'enterprise' });
    // The CLI is another process: its change reaches the api's cache over Redis, not instantly. The
    // limit in force shows in the rate-limit headers, which come from the cache, unlike the body.
    await waitFor(
      async () => (await app.http.get('/v1/account').set(auth)).headers['x-ratelimit-limit'] === '12000',
      5000,
      'the api to enforce the new plan (X-RateLimit-Limit: 12000)',
    );
    const account = await app.http.get('/v1/account').set(auth).expect(200);
    expect(account.body).toMatchObject({ plan: 'enterprise', limits: { perMinute: 12000, perDay: 5000000 } });
  });

  it('issues and revokes keys', async () => {
    const email = uniqueEmail('cli-keys');
    await cli('create-account', email);
    const issued = JSON.parse((await cli('issue-key', email, '--name', 'batch')).stdout);
    const auth = { Authorization: `Bearer ${issued.key}` };
    await app.http.get('/v1/account').set(auth).expect(200);
    expect((await cli('revoke-key', String(issued.keyId))).code).toBe(0);
    await waitFor(
      async () => (await app.http.get('/v1/account').set(auth)).status === 401,
      1000,
      'the revocation to reach the api',
    );
  });

  itOnOneRedis('makes the change and says on stderr when Redis cannot tell the running processes', async () => {
    const email = uniqueEmail('cli-no-redis');
    await cli('create-account', email);
    const issued = JSON.parse((await cli('issue-key', email)).stdout);
    const unreachable = { REDIS_URL: `redis://127.0.0.1:${await freePort()}` };

    const result = await cliWith(unreachable, 'revoke-key', String(issued.keyId));

    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ revoked: issued.keyId });
    expect(result.stderr).toMatch(/could not announce key-revoked/);
    // Stored all the same: a process that had not cached the key refuses it at once.
    await app.http.get('/v1/account').set('Authorization', `Bearer ${issued.key}`).expect(401);
  });

  it('prints only its JSON result on stdout, even when it creates and migrates the database', async () => {
    const database = `pet_adoption_cli_${process.pid}`;
    const databaseUrl = new URL(TEST_DATABASE_URL);
    databaseUrl.pathname = `/${database}`;
    try {
      const result = await cliWith(
        { DATABASE_URL: databaseUrl.toString(), DATABASE_MIGRATE_ON_START: 'true' },
        'create-account',
        uniqueEmail('cli-fresh'),
      );

      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ key: expect.any(String) });
    } finally {
      await withDatabase((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
    }
  });

  it.each([
    [['set-plan', 'nobody@example.com', 'gold'], 2, /plan must be one of/],
    [['set-plan', 'nobody@example.com', 'pro', '--per-minute', '5'], 2, /enterprise plan only/],
    [['set-plan', 'nobody@example.com', 'pro'], 1, /not_found/],
    [['create-account', 'not-an-email'], 2, /email address/],
    [['frobnicate'], 2, /unknown command/],
  ])('refuses %j with exit code %i and a clear message', async (args, code, message) => {
    const result = await cli(...args);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
  });
});
