import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { describeRedisTarget, redisConnectionOptions, type RedisTarget } from '../redis/redis-connection';

/** Why a process cannot start, in the one line it prints before it exits: what failed and what to do. */
export class StartupFailure extends Error {
  override name = StartupFailure.name;
}

/** A service a process needs from its start, and how to tell that it answers. */
export interface Dependency {
  name: string;
  /** The setting that says where it is. */
  setting: string;
  /** Where it was looked for, as the failure names it (a host and port). */
  where: string;
  /** Resolves once it answers; rejects with why it does not. */
  reach: () => Promise<void>;
}

/** How often a starting process asks a dependency again while it waits for it. */
const RETRY_MS = 500;

function reasonOf(error: unknown): string {
  const failure = error as Error & { code?: string; errors?: Error[] };
  // Node reports a refused `localhost` (tried on ::1, then 127.0.0.1) as an AggregateError without a message.
  return failure.message || failure.errors?.[0]?.message || failure.code || String(error);
}

/**
 * Waits up to `waitMs` for a dependency to answer (it may be starting beside the process, as under Docker
 * Compose), then fails with one line naming it, where it was looked for, the setting and what to do.
 */
export async function waitForDependency(dependency: Dependency, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await dependency.reach();
      return;
    } catch (error) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new StartupFailure(
          `${dependency.name} at ${dependency.where} did not answer within ${waitMs} ms (${reasonOf(error)}): start ` +
            `${dependency.name} there, or set ${dependency.setting} to where it runs.`,
        );
      }
      await delay(Math.min(RETRY_MS, left));
    }
  }
}

/** Connects once to the Redis at `url` and runs `ask`; rejects with why it could not connect, or `ask`'s failure. */
async function askOnce(url: string, ask: (client: Redis) => Promise<void>): Promise<void> {
  const client = new Redis({
    ...redisConnectionOptions(url),
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // connect() rejects with "Connection is closed."; why it closed (ECONNREFUSED, ENOTFOUND…) comes as an event.
  let cause: Error | undefined;
  client.on('error', (error: Error) => (cause = error));
  try {
    await client.connect();
    await ask(client);
  } catch (error) {
    throw cause ?? error;
  } finally {
    client.disconnect();
  }
}

/**
 * Redis at `REDIS_URL` answering a PING; or the cluster at `REDIS_CLUSTER_NODES` serving every slot
 * (`cluster_state:ok`) as the first seed node that answers says.
 */
export function redisDependency(target: RedisTarget): Dependency {
  const where = describeRedisTarget(target);
  if ('url' in target) {
    return {
      name: 'Redis',
      setting: 'REDIS_URL',
      where,
      reach: () => askOnce(target.url, async (c) => void (await c.ping())),
    };
  }
  return {
    name: 'Redis Cluster',
    setting: 'REDIS_CLUSTER_NODES',
    where,
    reach: async () => {
      let failure: unknown;
      for (const { host, port } of target.clusterNodes) {
        try {
          return await askOnce(`redis://${host}:${port}`, async (client) => {
            const state = /^cluster_state:(\w+)/m.exec(await client.cluster('INFO'))?.[1];
            if (state !== 'ok') throw new Error(`${host}:${port} reports cluster_state:${state}`);
          });
        } catch (error) {
          failure = error;
        }
      }
      throw failure;
    },
  };
}
