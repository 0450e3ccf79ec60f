import { randomInt, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { banKeys } from '../../libs/rate-limiting/src';
import { sleep, waitFor } from './processes';
import { withTestRedis } from './redis';
import { TEST_REDIS_URL } from './test-env';

/** The Error bodies of a request over a limit, and of a banned key's. */
export const rateLimited = { code: 'rate_limited', message: expect.any(String), status: 429 };
export const banned = { code: 'api_key_banned', message: expect.any(String), status: 429 };

export const retryAfterOf = (headers: Record<string, string>) => Number(headers['retry-after']);

/** A client address of its own per test, sent as X-Forwarded-For to an app that trusts the proxy. */
export function randomIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

/** Redis's clock, which the limiter's windows follow. */
export function redisNowMs(): Promise<number> {
  return withTestRedis(async (redis) => {
    const [seconds, micros] = await redis.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  });
}

/** How many refusals of an API key the limiter holds towards banning it (`tracker`: its account, `account:<id>`). */
export function refusalsLogged(tracker: string, keyId: number): Promise<number> {
  return withTestRedis((redis) => redis.zcard(banKeys(tracker, keyId)[1]));
}

/**
 * Moves every refusal logged for an API key (of the caller `tracker`) to `ageMs` before now (Redis's clock), as if they had been
 * that long ago: a clock the ban's look-back can be tested with.
 */
export function ageRefusals(tracker: string, keyId: number, ageMs: number): Promise<void> {
  return withTestRedis(async (redis) => {
    const [, log] = banKeys(tracker, keyId);
    const at = (await redisNowMs()) - ageMs;
    for (const refusal of await redis.zrange(log, 0, -1)) await redis.zadd(log, 'XX', at, refusal);
  });
}

export interface ScriptWatch {
  /** How many scripts naming the marker Redis was sent so far. */
  calls: () => Promise<number>;
  stop: () => void;
}

/**
 * Watches, through MONITOR, the scripts (EVAL, EVALSHA) sent to Redis whose arguments contain
 * `marker` (a part of the test's own keys), whoever else uses the server meanwhile.
 */
export async function watchScripts(marker: string): Promise<ScriptWatch> {
  // `monitor()` opens a connection of its own beside the client's: both are closed by `stop`.
  const client = new Redis(TEST_REDIS_URL);
  const monitor = await client.monitor();
  let calls = 0;
  const echoed = new Set<string>();
  monitor.on('monitor', (_time: string, args: string[]) => {
    const command = args[0]!.toLowerCase();
    if ((command === 'eval' || command === 'evalsha') && args.some((arg) => arg.includes(marker))) calls++;
    if (command === 'echo') echoed.add(args[1]!);
  });
  return {
    calls: async () => {
      // MONITOR shows commands in the order Redis runs them: once it shows this one, it has shown the rest.
      const sentinel = `sentinel-${randomUUID()}`;
      await withTestRedis((redis) => redis.echo(sentinel));
      await waitFor(async () => echoed.has(sentinel), 10_000, 'MONITOR to show the commands sent so far');
      return calls;
    },
    stop: () => {
      monitor.disconnect();
      client.disconnect();
    },
  };
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

/** Waits, by Redis's clock, until the fixed window of `windowSeconds` running now has ended. */
export async function windowOver(windowSeconds: number): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const end = (Math.floor((await redisNowMs()) / windowMs) + 1) * windowMs;
  await waitFor(async () => (await redisNowMs()) >= end, windowMs + 10_000, `the ${windowSeconds} s window to end`);
}

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
