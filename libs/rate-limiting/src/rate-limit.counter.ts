import { isTemporaryFailure, ServiceUnavailableError } from '@app/core';
import { ExecutionContext, Injectable, Logger } from '@nestjs/common';
import type { RateLimitCaller } from './rate-limit-caller.resolver';
import { RateLimitSettings } from './rate-limit.settings';
import { rateLimitRedisFailures } from './rate-limit.metrics';
import { RateLimitPolicy } from './rate-limit.policy';
import { RateLimitStore } from './rate-limit.store';
import { RateLimitDecision } from './rate-windows';

const WARNING_INTERVAL_MS = 5000;

/**
 * Counts a request in every window that applies to its caller, in one atomic step of the store, and
 * applies `RATE_LIMIT_ON_REDIS_FAILURE` when Redis cannot answer.
 */
@Injectable()
export class RateLimitCounter {
  private readonly logger = new Logger(RateLimitCounter.name);
  private lastWarningAt = 0;
  private unreportedFailures = 0;

  constructor(
    private readonly policy: RateLimitPolicy,
    private readonly store: RateLimitStore,
    private readonly settings: RateLimitSettings,
  ) {}

  /** The decision, or undefined when Redis cannot answer and the policy is to admit. */
  async count(caller: RateLimitCaller, route?: ExecutionContext): Promise<RateLimitDecision | undefined> {
    const paid = caller.paidForLookup?.decision;
    // An unknown key was counted when its address paid for the lookup; a request Redis could not decide
    // then was admitted by the failure policy, and Redis is not asked a second time.
    if (caller.paidForLookup && !(caller.principal && paid)) return paid;
    try {
      // After paying for a valid key's lookup the address gets its count back, in the same step: the
      // request counts against the account only.
      // A publishable key is not banned: one visitor's refusals must not shut its site out for all the others.
      const bannable = caller.principal?.allowedOrigins ? undefined : caller.principal?.keyId;
      return await this.store.consume(this.policy.windowsFor(caller, route), bannable, paid?.windows);
    } catch (error) {
      return this.onStoreFailure(error);
    }
  }

  /** Admits (undefined) or answers 503 when Redis cannot answer; any other failure goes on as it is. */
  private onStoreFailure(error: unknown): undefined {
    if (!isTemporaryFailure(error)) throw error;
    const policy = this.settings.RATE_LIMIT_ON_REDIS_FAILURE;
    rateLimitRedisFailures.inc({ policy });
    this.warnAtMostEvery(WARNING_INTERVAL_MS, `Redis unavailable for rate limiting (${(error as Error).message})`);
    if (policy === 'closed') throw new ServiceUnavailableError('Rate limiting is unavailable; retry shortly.');
    return undefined;
  }

  /** One line per interval during an outage, not one per request. */
  private warnAtMostEvery(intervalMs: number, message: string): void {
    this.unreportedFailures++;
    const now = Date.now();
    if (now - this.lastWarningAt < intervalMs) return;
    const policy = this.settings.RATE_LIMIT_ON_REDIS_FAILURE === 'open' ? 'admitting' : 'answering 503';
    this.logger.warn(`${message}: ${policy} (${this.unreportedFailures} request(s) since the last warning)`);
    this.lastWarningAt = now;
    this.unreportedFailures = 0;
  }
}
