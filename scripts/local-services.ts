// `npm start` on a machine where nothing runs yet: an embedded PostgreSQL 15 and a `redis-server` from PATH,
// started only when their setting is unset AND nothing answers at the default address. A development
// convenience: production configures DATABASE_URL and REDIS_URL (or REDIS_CLUSTER_NODES), which never fall back to these.
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { join } from 'node:path';
import { StartupFailure } from '@app/core';
import { LOCAL_PASSWORD, startEmbeddedPostgres } from './embedded-postgres';
import { forgetStartedServices, recordStartedServices } from './local-services-state';

const DEFAULT_POSTGRES = { host: '127.0.0.1', port: 5432 };
const DEFAULT_REDIS = { host: '127.0.0.1', port: 6379 };
/** Long enough for redis-server to replay its append-only file on a slow laptop; start-up then fails with a line saying so. */
const READY_WITHIN_MS = 60_000;

export interface LocalServices {
  /** The settings that point the apps at what was started (nothing when nothing was). */
  env: Record<string, string>;
  /** Stops what was started; the embedded database keeps its data for the next start. */
  stop(): Promise<void>;
}

/** Whether something accepts a TCP connection at the address within a second. */
function answers({ host, port }: { host: string; port: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const settle = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(1000, () => settle(false));
    socket.once('connect', () => settle(true));
    socket.once('error', () => settle(false));
    socket.connect(port, host);
  });
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

async function waitUntilAnswering(address: { host: string; port: number }, what: string): Promise<void> {
  const deadline = Date.now() + READY_WITHIN_MS;
  while (!(await answers(address))) {
    if (Date.now() > deadline)
      throw new StartupFailure(`${what} did not accept connections within ${READY_WITHIN_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function startRedisServer(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const redisDir = join(dir, 'redis');
  mkdirSync(redisDir, { recursive: true });
  const port = await freePort();
  // Appended to disk, so that jobs queued before a stop are there after the next start.
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes'];
  // Its own process group, as the embedded PostgreSQL's: the launcher stops it once the apps have stopped.
  const child: ChildProcess = spawn('redis-server', [...args, '--dir', redisDir], { stdio: 'ignore', detached: true });
  const failed = once(child, 'error').then(([error]) => {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new StartupFailure(
      missing
        ? 'Redis is not running at 127.0.0.1:6379, REDIS_URL is not set, and there is no redis-server on PATH: ' +
            'install Redis (Debian and Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL'
        : `redis-server could not be started: ${(error as Error).message}`,
    );
  });
  await Promise.race([waitUntilAnswering({ host: '127.0.0.1', port }, 'redis-server'), failed]);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/**
 * Starts what `env` leaves unset and nothing serves at the default address, each said in one line on
 * stderr. `dir` keeps their data between starts (`.local/` of the project, ignored by git) and, while they
 * run, their addresses for the operator CLI.
 */
export async function startLocalServices(env: NodeJS.ProcessEnv, dir: string): Promise<LocalServices> {
  const started: Array<() => Promise<void>> = [];
  const stop = async () => {
    forgetStartedServices(dir);
    for (const stopOne of started.reverse()) await stopOne().catch(() => {});
  };
  const settings: Record<string, string> = {};
  try {
    if (!env.DATABASE_URL && !(await answers(DEFAULT_POSTGRES))) {
      const postgres = await startEmbeddedPostgres(dir, await freePort());
      started.push(postgres.stop);
      settings.DATABASE_URL = postgres.url;
      console.error(
        `No PostgreSQL at 127.0.0.1:5432 and DATABASE_URL is not set: started an embedded PostgreSQL 15 ` +
          `(${postgres.url.replace(`:${LOCAL_PASSWORD}@`, '@')}, data in ${postgres.dataDir}) for development`,
      );
    }
    if (!env.REDIS_URL && !env.REDIS_CLUSTER_NODES && !(await answers(DEFAULT_REDIS))) {
      const redis = await startRedisServer(dir);
      started.push(redis.stop);
      settings.REDIS_URL = redis.url;
      console.error(
        `No Redis at 127.0.0.1:6379 and REDIS_URL is not set: started redis-server (${redis.url}, data in ${join(dir, 'redis')}) for development`,
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  if (started.length > 0) recordStartedServices(dir, settings);
  return { env: settings, stop };
}
