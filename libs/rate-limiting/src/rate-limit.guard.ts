import { AuthenticatedRequest } from '@app/core';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { RateLimitCallerResolver } from './rate-limit-caller.resolver';
import { RateLimitCounter } from './rate-limit.counter';
import { rateLimitRefusals } from './rate-limit.metrics';
import { RateLimitPolicy } from './rate-limit.policy';
import { ApiKeyBannedError, RateLimitedError } from './rate-limiting.errors';
import { RateLimitDecision, rateLimitHeaders, retryAfterSeconds } from './rate-windows';

/** Marks a request the guard has run for, so it is never counted twice. */
const DECIDED = Symbol('rate-limit-decided');

/**
 * Global guard, registered before the bearer guard so that a 401 is counted and carries the headers
 * too, as every later error (400, 404, 500) does.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly policy: RateLimitPolicy,
    private readonly callers: RateLimitCallerResolver,
    private readonly counter: RateLimitCounter,
  ) {}

  static hasDecided(request: object): boolean {
    return DECIDED in request;
  }

  canActivate(context: ExecutionContext): true | Promise<true> {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    return this.limit(http.getRequest<AuthenticatedRequest>(), http.getResponse<Response>(), context);
  }

  /** Limits a request on `route`; undefined for a request no route matched, which has no metadata. */
  async limit(request: AuthenticatedRequest, response: Response, route?: ExecutionContext): Promise<true> {
    (request as { [DECIDED]?: true })[DECIDED] = true;
    if (this.policy.skips(route)) return true;
    // The account of a valid key, else the client address; then its windows, in one atomic step; then
    // the headers, before anything can throw. The bearer guard comes next and refuses a request without
    // a valid key.
    const caller = await this.callers.resolve(request, route);
    const decision = await this.counter.count(caller, route);
    return this.answer(response, decision);
  }

  /** Sets the headers of the decision, then admits or refuses the request. */
  private answer(response: Response, decision?: RateLimitDecision): true {
    if (!decision) return true;
    for (const [name, value] of Object.entries(rateLimitHeaders(decision))) response.setHeader(name, value);
    if (decision.admitted) return true;
    const error =
      decision.banMs > 0
        ? new ApiKeyBannedError(retryAfterSeconds(decision))
        : new RateLimitedError(retryAfterSeconds(decision));
    rateLimitRefusals.inc({ code: error.code });
    throw error;
  }
}
