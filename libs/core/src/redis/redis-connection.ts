import type { RedisOptions } from 'ioredis';

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

/**
 * A BullMQ worker's connection: unlike a request-path one, which fails fast, it waits out a Redis
 * outage, and reconnects within 2 s of its end (BullMQ's default backs off to 20 s).
 */
export function workerRedisOptions(url: string) {
  return { ...redisConnectionOptions(url), retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000) };
}
