import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DIST } from './support/processes';

const run = promisify(execFile);

/**
 * `npm start` on a machine where nothing answers at PostgreSQL's and Redis' default addresses: it runs
 * in a network namespace of its own (only its loopback, so the machine's own servers are out of reach),
 * with a temporary HOME, and a client in the same namespace signs up once every app is ready.
 */
const IN_EMPTY_NETWORK = String.raw`
ip link set lo up
HOME="$SANDBOX/home" LOCAL_SERVICES_DIR="$SANDBOX/local" LOG_LEVEL=warn node "$DIST/scripts/start-all.js" > "$SANDBOX/start.log" 2>&1 &
launcher=$!
ready=no
for _ in $(seq 1 600); do
  if curl -sf http://127.0.0.1:3000/health/ready > /dev/null && curl -sf http://127.0.0.1:3001/health/ready > /dev/null; then ready=yes; break; fi
  kill -0 $launcher 2> /dev/null || break
  sleep 0.5
done
echo "ready=$ready"
curl -s -o /dev/null -w 'signup=%{http_code}\n' -X POST http://127.0.0.1:3000/v1/accounts \
  -H 'Content-Type: application/json' -d '{"email":"first@example.com"}'
kill -TERM $launcher
wait $launcher
echo "launcher-exit=$?"
`;

describe('npm start with nothing installed but Node and redis-server', () => {
  let sandbox: string;
  let report: string;

  beforeAll(async () => {
    sandbox = mkdtempSync(join(tmpdir(), 'local-services-'));
    // The embedded PostgreSQL runs as the `postgres` user when the tests run as root.
    chmodSync(sandbox, 0o777);
    const { stdout } = await run('unshare', ['--net', '--', 'bash', '-c', IN_EMPTY_NETWORK], {
      // Only what a fresh machine has: no setting of the test environment reaches it.
      env: { PATH: process.env.PATH, SANDBOX: sandbox, DIST },
      timeout: 420_000,
    });
    report = stdout;
  }, 450_000);
  afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

  const log = () => run('cat', [join(sandbox, 'start.log')]).then(({ stdout }) => stdout);

  it('starts an embedded PostgreSQL and redis-server, each said in one line, and serves', async () => {
    expect(report).toContain('ready=yes\nsignup=201\n');
    const lines = (await log()).split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^No PostgreSQL at 127\.0\.0\.1:5432 and DATABASE_URL is not set: started an embedded PostgreSQL 15 /,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^No Redis at 127\.0\.0\.1:6379 and REDIS_URL is not set: started redis-server /),
    );
  });

  it('stops them with the apps, and exits cleanly', async () => {
    expect(report).toContain('launcher-exit=0');
    // Nothing started from the sandbox outlives the launcher.
    await expect(run('pgrep', ['-f', sandbox])).rejects.toMatchObject({ code: 1 });
  });
});

describe('configured addresses never fall back', () => {
  it('refuses to start when the configured PostgreSQL does not answer', async () => {
    const failure = await run('unshare', ['--net', '--', 'node', join(DIST, 'scripts', 'start-all.js')], {
      env: {
        ...process.env,
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/pet_adoption',
        REDIS_URL: 'redis://127.0.0.1:6379',
      },
      timeout: 60_000,
    }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );

    expect(failure?.code).not.toBe(0);
    expect(failure?.stderr).not.toContain('embedded PostgreSQL');
  });
});
