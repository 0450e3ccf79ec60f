import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiApp } from '../support/api-app';
import { runCli } from '../support/cli';
import { withDatabase } from '../support/database';
import { uniqueEmail } from '../support/factories';
import { firstStart, FirstStart } from '../support/first-start';
import type { TestHttpApp } from '../support/http-app';
import { freePort, waitFor } from '../support/processes';
import { TEST_DATABASE_URL } from '../support/test-env';
import { itOnOneRedis } from '../support/redis-suites';

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

  it('issues a key with the scopes asked, which the API enforces', async () => {
    const email = uniqueEmail('cli-scopes');
    await cli('create-account', email);
    const result = await cli('issue-key', email, '--name', 'reader', '--scope', 'pets:read', '--scope', 'orders:write');
    expect(result.code).toBe(0);
    const issued = JSON.parse(result.stdout);
    expect(issued.scopes).toEqual(['pets:read', 'orders:write']);
    const auth = { Authorization: `Bearer ${issued.key}` };
    await app.http.get('/v1/store/orders').set(auth).expect(200);
    const refused = await app.http.get('/v1/keys').set(auth).expect(403);
    expect(refused.body.code).toBe('insufficient_scope');
  });

  it('refuses a scope the API refuses, with the API’s message', async () => {
    const { key } = JSON.parse((await cli('create-account', uniqueEmail('cli-bad-scope'))).stdout);
    const api = await app.http
      .post('/v1/keys')
      .set('Authorization', `Bearer ${key}`)
      .send({ scopes: ['pets:read', 'gold'] })
      .expect(400);

    const result = await cli('issue-key', uniqueEmail('cli-bad-scope'), '--scope', 'pets:read', '--scope', 'gold');

    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(api.body.message);
    expect(result.stderr).toContain('npm run cli -- issue-key <email>');
  });

  it('lists accounts a page at a time, and an account’s keys, revoked ones included', async () => {
    const emails = [uniqueEmail('cli-list-1'), uniqueEmail('cli-list-2')];
    const created = [];
    for (const email of emails) created.push(JSON.parse((await cli('create-account', email)).stdout));
    const before = String(created[0].accountId - 1);

    const first = JSON.parse((await cli('list-accounts', '--after', before, '--limit', '1')).stdout);
    expect(first.accounts[0]).toEqual({
      id: created[0].accountId,
      email: emails[0],
      plan: 'free',
      customPerMinute: null,
      customPerDay: null,
      createdAt: expect.any(String),
    });
    expect(first.accounts).toHaveLength(1);
    expect(first.next).toBe(created[0].accountId);
    const second = JSON.parse((await cli('list-accounts', '--after', String(first.next), '--limit', '1')).stdout);
    expect(second.accounts.map((account: { email: string }) => account.email)).toEqual([emails[1]]);

    const issued = JSON.parse((await cli('issue-key', emails[0]!, '--scope', 'pets:read')).stdout);
    await cli('revoke-key', String(created[0].keyId));
    const listed = JSON.parse((await cli('list-keys', emails[0]!)).stdout);
    expect(listed).toMatchObject({ accountId: created[0].accountId, email: emails[0] });
    expect(listed.keys).toEqual([
      expect.objectContaining({ id: created[0].keyId, scopes: ['*'], revokedAt: expect.any(String) }),
      expect.objectContaining({ id: issued.keyId, scopes: ['pets:read'], revokedAt: null }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(issued.key);
  });

  it('says a key that does not exist in an operator’s terms', async () => {
    const result = await cli('revoke-key', '999999999');
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('not_found: No API key 999999999.');
  });

  describe('help', () => {
    // Help needs no database: nothing answers here.
    const nowhere = async () => ({ DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/nowhere` });

    it.each([['--help'], ['help']])('%s prints every command on stdout', async (flag) => {
      const result = await cliWith(await nowhere(), flag);
      expect(result.code).toBe(0);
      for (const command of ['create-account', 'issue-key', 'list-accounts', 'list-keys', 'revoke-key', 'set-plan']) {
        expect(result.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
      }
    });

    it.each([
      ['issue-key', ['issue-key', '--help'], '--scope SCOPE   what the key may do'],
      ['list-accounts', ['help', 'list-accounts'], '--after ID   start after this account id'],
    ])('says the arguments and options of %s (%j)', async (command, args, said) => {
      const result = await cliWith(await nowhere(), ...args);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`npm run cli -- ${command} `);
      expect(result.stdout).toContain(said);
    });
  });

  it.each([
    [['revoke-key', '12', '--force'], 2, /^Unknown option '--force'\n\nnpm run cli -- revoke-key <keyId>/],
    [['list-accounts', '--limit', '5000'], 2, /--limit must be at most 1000/],
    [['set-plan', 'nobody@example.com', 'gold'], 2, /plan must be one of/],
    [['set-plan', 'nobody@example.com', 'pro', '--per-minute', '5'], 2, /enterprise plan only/],
    [['set-plan', 'nobody@example.com', 'pro'], 1, /not_found/],
    [['create-account', 'not-an-email'], 2, /email address/],
    [['frobnicate'], 2, /unknown command/],
    [[], 2, /no command given/],
  ])('refuses %j with exit code %i and a clear message', async (args, code, message) => {
    const result = await cli(...args);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
  });
});

describe('the operator CLI beside a running npm start that started its own PostgreSQL and Redis', () => {
  let start: FirstStart;
  let cliSaid: string;

  beforeAll(async () => {
    // No DATABASE_URL nor REDIS_URL: the CLI finds what the launcher started, on ports of that start.
    start = await firstStart(String.raw`
$CLI create-account first@example.com > "$SANDBOX/created.json" 2> "$SANDBOX/cli.err"
echo "cli=$?"
key=$("$NODE" -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).key' "$SANDBOX/created.json")
curl -s -o /dev/null -w 'account=%{http_code}\n' -H "Authorization: Bearer $key" http://127.0.0.1:3000/v1/account`);
    cliSaid = readFileSync(join(start.sandbox, 'cli.err'), 'utf8');
  }, 450_000);
  afterAll(() => start?.remove());

  it('creates an account there whose key the running api accepts', () => {
    expect(start.report).toContain('ready=yes\ncli=0\naccount=200\n');
    expect(start.report).toContain('launcher-exit=0');
  });

  it('says which it used', () => {
    expect(cliSaid.trim()).toMatch(
      new RegExp(
        `^Using what npm start started \\(${join(start.project, '.local', 'services.json')}\\): ` +
          'DATABASE_URL=postgres://postgres@127\\.0\\.0\\.1:\\d+/pet_adoption, REDIS_URL=redis://127\\.0\\.0\\.1:\\d+$',
      ),
    );
  });
});
