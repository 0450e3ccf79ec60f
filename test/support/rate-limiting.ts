import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL } from './test-env';

/** A client address of its own per test, sent as X-Forwarded-For to an app that trusts the proxy. */
export function randomIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

async function withRedis<T>(use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

/** Redis's clock, which the limiter's windows follow. */
export function redisNowMs(): Promise<number> {
  return withRedis(async (redis) => {
    const [seconds, micros] = await redis.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  });
}

/** How many refusals of an API key the limiter holds towards banning it. */
export function refusalsLogged(keyId: number): Promise<number> {
  return withRedis((redis) => redis.zcard(`rate-limit:refusals:key:${keyId}`));
}

/**
 * Moves every refusal logged for an API key to `ageMs` before now (Redis's clock), as if they had been
 * that long ago: a clock the ban's look-back can be tested with.
 */
export function ageRefusals(keyId: number, ageMs: number): Promise<void> {
  return withRedis(async (redis) => {
    const log = `rate-limit:refusals:key:${keyId}`;
    const at = (await redisNowMs()) - ageMs;
    for (const refusal of await redis.zrange(log, 0, -1)) await redis.zadd(log, 'XX', at, refusal);
  });
}

/** How many scripts Redis has run since it started (EVAL and EVALSHA, from every client). */
export function scriptCallsSoFar(): Promise<number> {
  return withRedis(async (redis) => {
    const stats = await redis.info('commandstats');
    return [...stats.matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+)/gm)].reduce(
      (sum, [, calls]) => sum + Number(calls),
      0,
    );
  });
}

/**
 * Waits, when needed, for the next fixed window of `windowSeconds` so that at least `neededMs` of
 * it remain: counting tests then never straddle a window boundary.
 */
export async function windowWithRoom(windowSeconds: number, neededMs: number): Promise<void> {
  const now = await redisNowMs();
  const left = windowSeconds * 1000 - (now % (windowSeconds * 1000));
  if (left < neededMs) await sleep(left + 50);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `count` calls at once and returns their results in order. */
export function together<T>(count: number, call: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => call(index)));
}

/** Spec section 8's headers and the IETF ones; returns the parsed `X-RateLimit-*` values. */
export function rateLimitHeadersOf(headers: Record<string, string | undefined>) {
  expect(headers['x-ratelimit-limit']).toMatch(/^\d+$/);
  expect(headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  expect(headers['x-ratelimit-reset']).toMatch(/^\d{10}$/);
  expect(headers['ratelimit-policy']).toMatch(/^"minute";q=\d+;w=\d+/);
  expect(headers.ratelimit).toMatch(/^"minute";r=\d+;t=\d+/);
  return {
    limit: Number(headers['x-ratelimit-limit']),
    remaining: Number(headers['x-ratelimit-remaining']),
    reset: Number(headers['x-ratelimit-reset']),
  };
}
