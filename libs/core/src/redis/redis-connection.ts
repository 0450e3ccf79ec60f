import type { ConnectionOptions } from 'bullmq';
import { Cluster, Redis, type RedisOptions } from 'ioredis';

/** A connection to one Redis or to a Redis Cluster: every command the service sends exists on both. */
export type RedisClient = Redis | Cluster;

/** Where Redis is: one server (`REDIS_URL`), or a cluster's seed nodes (`REDIS_CLUSTER_NODES`). */
export type RedisTarget = { url: string } | { clusterNodes: Array<{ host: string; port: number }> };

/** ioredis/BullMQ connection options from a `redis://` or `rediss://` URL. */
export function redisConnectionOptions(url: string): RedisOptions {
  const parsed = new URL(url);
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: Number.isInteger(db) ? db : 0,
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/** Where `target` is, as a start-up failure names it: a host and port, or a cluster's seed nodes. */
export function describeRedisTarget(target: RedisTarget): string {
  if ('url' in target) return new URL(target.url).host;
  return target.clusterNodes.map(({ host, port }) => `${host}:${port}`).join(', ');
}

/**
 * A client of `target` whose connections take `options`. On a cluster, the offline queue, the retry
 * strategy and `lazyConnect` are the cluster client's own (it retries, queues and connects as a whole,
 * following MOVED and ASK on its own), and the rest applies to each node's connection.
 */
export function createRedisClient(target: RedisTarget, options: RedisOptions = {}): RedisClient {
  if ('url' in target) return new Redis({ ...redisConnectionOptions(target.url), ...options });
  const { enableOfflineQueue, retryStrategy, lazyConnect, ...perNode } = options;
  return new Cluster(target.clusterNodes, {
    enableOfflineQueue,
    lazyConnect,
    ...(retryStrategy && { clusterRetryStrategy: (attempt: number) => retryStrategy(attempt) }),
    redisOptions: perNode,
  });
}

/**
 * A BullMQ worker's connection: unlike a request-path one, which fails fast, it waits out a Redis
 * outage, and reconnects within 2 s of its end (BullMQ's default backs off to 20 s).
 */
const retryWithin2s = (attempt: number) => Math.min(attempt * 200, 2000);

/**
 * What BullMQ connects with for a worker or a queue that workers use: options for one Redis, from which
 * BullMQ makes (and closes) its own connections; a cluster client otherwise, since BullMQ makes only
 * single-server connections from options. That client is the caller's to close: BullMQ closes only the
 * duplicates it makes of it.
 */
export function workerConnection(target: RedisTarget): ConnectionOptions {
  if ('url' in target) return { ...redisConnectionOptions(target.url), retryStrategy: retryWithin2s };
  // BullMQ refuses a blocking connection that gives commands up; it duplicates this one for its blocking reads.
  const options = { retryStrategy: retryWithin2s, maxRetriesPerRequest: null, lazyConnect: true };
  return createRedisClient(target, options);
}
