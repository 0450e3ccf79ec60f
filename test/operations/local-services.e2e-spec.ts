import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { StartupFailure } from '@app/core';
import { ROOT_FALLBACK_DIR, startEmbeddedPostgres } from '../../scripts/embedded-postgres';
import { firstStart, FirstStart } from '../support/first-start';
import { DIST, freePort } from '../support/processes';

const run = promisify(execFile);

describe('npm start with nothing installed but Node and redis-server, as root in a folder only root may enter', () => {
  let start: FirstStart;

  beforeAll(async () => {
    start = await firstStart(String.raw`
curl -s -o /dev/null -w 'signup=%{http_code}\n' -X POST http://127.0.0.1:3000/v1/accounts \
  -H 'Content-Type: application/json' -d '{"email":"first@example.com"}'`);
  }, 450_000);
  afterAll(() => start?.remove());

  it('starts an embedded PostgreSQL and redis-server, each said in one line, and serves', () => {
    expect(start.report).toContain('ready=yes\nsignup=201\n');
    const lines = start.log().split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^No PostgreSQL at 127\.0\.0\.1:5432 and DATABASE_URL is not set: started an embedded PostgreSQL 15 /,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^No Redis at 127\.0\.0\.1:6379 and REDIS_URL is not set: started redis-server /),
    );
    expect(start.log()).not.toMatch(/^\s+at /m);
  });

  it('leaves the folder private: the PostgreSQL that runs as the postgres user keeps its data outside it', () => {
    expect(statSync(start.sandbox).mode & 0o777).toBe(0o700);
    expect(start.postgresDataDir()).toMatch(new RegExp(`^${ROOT_FALLBACK_DIR}/`));
  });

  it('stops them with the apps, and exits cleanly', async () => {
    expect(start.report).toContain('launcher-exit=0');
    // Nothing it started outlives the launcher, nor the record of what it started.
    for (const path of [start.sandbox, start.postgresDataDir()!]) {
      await expect(run('pgrep', ['-f', path])).rejects.toMatchObject({ code: 1 });
    }
    expect(existsSync(join(start.project, '.local', 'services.json'))).toBe(false);
  });
});

describe('an embedded PostgreSQL that cannot start', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'embedded-twice-'));
    // Where the postgres user may enter, as root: this test is about the second start, not the folder.
    chmodSync(dir, 0o755);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says why in one line, with what to do, when another holds its data', async () => {
    const first = await startEmbeddedPostgres(dir, await freePort());
    try {
      const second = startEmbeddedPostgres(dir, await freePort());
      await expect(second).rejects.toBeInstanceOf(StartupFailure);
      await expect(second).rejects.toThrow(
        /^The embedded PostgreSQL could not start \(postgres exited with 1: FATAL: lock file "postmaster.pid" already exists HINT: Is another postmaster .*\): fix what it says, or start PostgreSQL 15 yourself and set DATABASE_URL$/,
      );
    } finally {
      await first.stop();
    }
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
