import { setTimeout as delay } from 'node:timers/promises';
import { createRedisClient, describeRedisTarget, type RedisTarget } from '../redis/redis-connection';

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
  const failure = error as Error & { code?: string; errors?: Error[]; lastNodeError?: Error };
  // A cluster client says only that it could not learn the slots; its last node says why.
  if (failure.lastNodeError) return `${failure.message} ${reasonOf(failure.lastNodeError)}`;
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

/**
 * Redis at `REDIS_URL` answering a PING, or the cluster at `REDIS_CLUSTER_NODES` once its client has learnt
 * which node serves each slot and a node answers a PING.
 */
export function redisDependency(target: RedisTarget): Dependency {
  return {
    name: 'Redis',
    setting: 'url' in target ? 'REDIS_URL' : 'REDIS_CLUSTER_NODES',
    where: describeRedisTarget(target),
    reach: async () => {
      const client = createRedisClient(target, {
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
        await client.ping();
      } catch (error) {
        throw cause ?? error;
      } finally {
        client.disconnect();
      }
    },
  };
}
