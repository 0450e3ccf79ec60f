import { randomUUID } from 'node:crypto';
import { Batcher, REDIS, type RedisClient } from '@app/core';
import { Inject, Injectable } from '@nestjs/common';
import { banKeys, trackerOf } from './rate-limit.keys';
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

/** What one script call decides: a request, or only the refund of one (`decides` undefined). */
interface ScriptPart extends DecisionRequest {
  /** The index of the request in its batch. */
  decides?: number;
}

/**
 * Rate-limit state in Redis: one script call (EVALSHA) decides every window and ban of every request
 * that arrived together: one command, one reply and one command timeout for them all, where a call per
 * request cost the api most of its CPU on a 429. On a Redis Cluster, where a script's keys must share a
 * slot, it is one call per caller of the batch instead, run at once. A batch whose call fails fails whole. Runs on the
 * shared request-path connection, which fails fast: no offline queue and a command timeout, so a dead or
 * frozen Redis surfaces as an error within REDIS_COMMAND_TIMEOUT_MS (twice that for requests that arrived
 * while the call before theirs was waiting).
 */
@Injectable()
export class RateLimitStore {
  private readonly decide: DecideCommand;
  /** Which call of a batch a window's key goes in: its caller's on a cluster, the one call otherwise. */
  private readonly callOf: (key: string) => string;
  private readonly batches = new Batcher<DecisionRequest, RateLimitDecision>(
    (requests) => this.decideAll(requests),
    0,
    MAX_DECISIONS_PER_CALL,
  );

  constructor(
    @Inject(REDIS) redis: RedisClient,
    private readonly settings: RateLimitSettings,
  ) {
    redis.defineCommand(COMMAND, { lua: RATE_LIMIT_SCRIPT });
    this.decide = (redis as unknown as Record<string, DecideCommand>)[COMMAND]!.bind(redis);
    this.callOf = redis.isCluster ? trackerOf : () => '';
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
    const calls = new Map<string, ScriptPart[]>();
    const add = (call: string, part: ScriptPart) => {
      const parts = calls.get(call);
      if (parts) parts.push(part);
      else calls.set(call, [part]);
    };
    requests.forEach((request, at) => {
      const call = this.callOf(request.windows[0]!.key);
      const refundCall = request.refund.length > 0 ? this.callOf(request.refund[0]!.key) : call;
      if (refundCall === call) add(call, { ...request, decides: at });
      else {
        // The address that paid for a key's lookup is another caller: it gets its count back in its own call.
        add(refundCall, { windows: [], refund: request.refund });
        add(call, { ...request, refund: [], decides: at });
      }
    });
    const decisions: RateLimitDecision[] = [];
    await Promise.all(
      [...calls.values()].map(async (parts) => {
        const decided = await this.run(parts);
        parts.forEach(({ decides }, index) => {
          if (decides !== undefined) decisions[decides] = decided[index]!;
        });
      }),
    );
    return decisions;
  }

  /** One script call, whose keys share a slot on a cluster. */
  private async run(requests: DecisionRequest[]): Promise<RateLimitDecision[]> {
    const keys: string[] = [];
    const perRequest: Array<string | number> = [];
    for (const { windows, keyId, refund } of requests) {
      for (const window of windows) keys.push(window.key);
      if (keyId !== undefined) keys.push(...banKeys(trackerOf(windows[0]!.key), keyId));
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
