import { randomUUID } from 'node:crypto';
import { Batcher, REDIS } from '@app/core';
import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RATE_LIMIT_SCRIPT } from './rate-limit.script';
import { RateLimitSettings } from './rate-limit.settings';
import { RateLimitDecision, WindowSpec, WindowState } from './rate-windows';

const COMMAND = 'rateLimitDecide';
type DecideCommand = (keyCount: number, ...args: Array<string | number>) => Promise<number[]>;
/** Bounds how long one script call holds Redis when requests pile up behind a slow one. */
const MAX_DECISIONS_PER_CALL = 200;

/**
 * One request's part of a batch: its windows, the key whose refusals count towards its ban, and the
 * windows that counted it before and give it back.
 */
interface DecisionRequest {
  windows: WindowSpec[];
  keyId?: number;
  refund: WindowState[];
}

/**
 * Rate-limit state in Redis: one script call (EVALSHA) decides every window and ban of every request
 * that arrived together: one command, one reply and one command timeout for them all, where a call per
 * request cost the api most of its CPU on a 429. A call that fails fails all of its requests. Runs on the
 * shared request-path connection, which fails fast: no offline queue and a command timeout, so a dead or
 * frozen Redis surfaces as an error within REDIS_COMMAND_TIMEOUT_MS (twice that for requests that arrived
 * while the call before theirs was waiting).
 */
@Injectable()
export class RateLimitStore {
  private readonly decide: DecideCommand;
  private readonly batches = new Batcher<DecisionRequest, RateLimitDecision>(
    (requests) => this.decideAll(requests),
    0,
    MAX_DECISIONS_PER_CALL,
  );

  constructor(
    @Inject(REDIS) redis: Redis,
    private readonly settings: RateLimitSettings,
  ) {
    redis.defineCommand(COMMAND, { lua: RATE_LIMIT_SCRIPT });
    this.decide = (redis as unknown as Record<string, DecideCommand>)[COMMAND]!.bind(redis);
  }

  /**
   * Counts the request in every window when all have room. With `keyId`, refusals count towards
   * banning that key (not its account: the account's other keys keep working). The windows of
   * `refund`, from an earlier decision that counted this request, each count one request fewer.
   */
  consume(windows: WindowSpec[], keyId?: number, refund: WindowState[] = []): Promise<RateLimitDecision> {
    return this.batches.add({ windows, keyId, refund });
  }

  private async decideAll(requests: DecisionRequest[]): Promise<RateLimitDecision[]> {
    const keys: string[] = [];
    const perRequest: Array<string | number> = [];
    for (const { windows, keyId, refund } of requests) {
      for (const window of windows) keys.push(window.key);
      if (keyId !== undefined) keys.push(`rate-limit:ban:key:${keyId}`, `rate-limit:refusals:key:${keyId}`);
      // The script names a window's counter after the window's start.
      for (const window of refund) keys.push(`${window.key}:${window.resetAt - window.seconds}`);
      perRequest.push(windows.length, keyId === undefined ? 0 : 1, refund.length);
      for (const window of windows) perRequest.push(window.limit, window.seconds);
    }
    const [nowMs, ...states] = await this.decide(
      keys.length,
      ...keys,
      this.settings.RATE_LIMIT_BAN_AFTER,
      this.settings.RATE_LIMIT_BAN_SECONDS * 1000,
      // "Within one minute": the minute window's length, so tests that shorten it shorten this too.
      this.settings.RATE_LIMIT_MINUTE_WINDOW_SECONDS * 1000,
      randomUUID(),
      requests.length,
      ...perRequest,
    );
    let at = 0;
    return requests.map(({ windows }) => ({
      admitted: states[at++] === 1,
      banMs: states[at++]!,
      nowMs: nowMs!,
      windows: windows.map((window) => ({ ...window, count: states[at++]!, resetAt: states[at++]! })),
    }));
  }
}
