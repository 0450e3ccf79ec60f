import { ApiKeyAuthenticator } from '@app/accounts';
import {
  AuthenticatedRequest,
  Environment,
  IS_PUBLIC,
  isDependencyUnavailable,
  Principal,
  ServiceUnavailableError,
  SKIP_RATE_LIMIT,
} from '@app/core';
import { ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerModuleOptions,
  ThrottlerRequest,
} from '@nestjs/throttler';
import { rateLimitRedisFailures, rateLimitRefusals } from './rate-limit.metrics';
import { RateLimitStore } from './rate-limit.store';
import { ApiKeyBannedError, RateLimitedError } from './rate-limiting.errors';
import { RateLimitDecision, rateLimitHeaders, retryAfterSeconds, WindowSpec, WindowState } from './rate-windows';

const WARNING_INTERVAL_MS = 5000;
const accountTracker = (principal: Principal) => `account:${principal.accountId}`;
/** Marks a request the guard has run for, so it is never counted twice. */
const DECIDED = Symbol('rate-limit-decided');

/**
 * Global guard, registered before the bearer guard. Throttler's machinery resolves which named
 * windows apply and with which limits (plan, `@SkipRateLimit()`, the sign-up marker); instead of
 * asking the storage once per window, `handleRequest` only collects them, and the whole decision is
 * then one atomic Redis step. The headers are set before anything can throw, so every later error
 * (401 from the bearer guard, 400, 404, 500) carries them too. A key that has to be looked up in
 * PostgreSQL is first paid for by the client address (see `payForLookup`).
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override logger = new Logger(RateLimitGuard.name);
  private readonly collecting = new WeakMap<object, WindowSpec[]>();
  private lastWarningAt = 0;
  private unreportedFailures = 0;

  // Same order as ThrottlerGuard's: Nest inherits the positions of its injection decorators.
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly store: RateLimitStore,
    reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly env: Environment,
  ) {
    super(options, store, reflector);
  }

  static hasDecided(request: object): boolean {
    return DECIDED in request;
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const { req, res } = this.getRequestResponse(context);
    const request = req as AuthenticatedRequest & { [DECIDED]?: true };
    request[DECIDED] = true;
    if (await this.shouldSkip(context)) return true;
    // A route served without a key (sign-up) is limited per client IP even when a key is sent.
    const keyed = !this.isPublic(context);
    const lookingUp = keyed && !this.authenticator.identifyWithoutLookup(request);
    const paid = lookingUp ? await this.payForLookup(context, request) : undefined;
    if (paid && !paid.admitted) return this.answer(res, paid);

    const principal = keyed ? await this.authenticator.identify(request) : undefined;
    if (principal) request.rateLimitCaller = accountTracker(principal);
    let decision: RateLimitDecision | undefined;
    if (lookingUp && !(principal && paid)) {
      // An unknown key was counted when the address paid; a request Redis could not decide then was
      // admitted by the failure policy, and Redis is not asked a second time.
      decision = paid;
    } else if (principal) {
      // A valid key counts against its account only: the address gets back what it paid.
      decision = await this.decide(this.accountWindows(principal), principal, paid?.windows);
    } else {
      const windows = await this.resolveWindows(context, request);
      if (windows.length === 0) return true;
      decision = await this.decide(windows);
    }
    return this.answer(res, decision);
  }

  /**
   * A key no cache knows costs a PostgreSQL query, and anyone can make keys up: the request is first
   * counted against the client address as a keyless one, and a caller over that limit is refused
   * before the query is made. Undefined when no window applies or Redis could not answer.
   */
  private async payForLookup(
    context: ExecutionContext,
    request: AuthenticatedRequest,
  ): Promise<RateLimitDecision | undefined> {
    const windows = await this.resolveWindows(context, request);
    return windows.length === 0 ? undefined : await this.decide(windows);
  }

  /** Sets the headers of the decision, then admits or refuses the request. */
  private answer(res: Record<string, unknown>, decision?: RateLimitDecision): true {
    if (!decision) return true;
    for (const [name, value] of Object.entries(rateLimitHeaders(decision))) this.setResponseHeader(res, name, value);
    if (decision.admitted) return true;
    const error =
      decision.banMs > 0
        ? new ApiKeyBannedError(retryAfterSeconds(decision))
        : new RateLimitedError(retryAfterSeconds(decision));
    rateLimitRefusals.inc({ code: error.code });
    throw error;
  }

  /**
   * The hot path: a caller with a key on a keyed route has exactly its account's minute and day windows
   * (what the named throttlers resolve to), built without walking throttler's machinery per request.
   */
  private accountWindows(principal: Principal): WindowSpec[] {
    const tracker = accountTracker(principal);
    return [
      {
        name: 'minute',
        key: this.generateKey(undefined, tracker, 'minute'),
        limit: principal.limits.perMinute,
        seconds: this.env.RATE_LIMIT_MINUTE_WINDOW_SECONDS,
      },
      {
        name: 'day',
        key: this.generateKey(undefined, tracker, 'day'),
        limit: principal.limits.perDay,
        seconds: this.env.RATE_LIMIT_DAY_WINDOW_SECONDS,
      },
    ];
  }

  /** Keyless callers and sign-up: the named throttlers decide which windows apply, and their limits. */
  private async resolveWindows(context: ExecutionContext, request: object): Promise<WindowSpec[]> {
    const windows: WindowSpec[] = [];
    this.collecting.set(request, windows);
    await super.canActivate(context);
    this.collecting.delete(request);
    return windows;
  }

  /** `@SkipRateLimit()` (health, metrics) skips every window. */
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    const skip = this.reflector.getAllAndOverride<boolean>(SKIP_RATE_LIMIT, [context.getHandler(), context.getClass()]);
    return skip === true;
  }

  /** Collects the window instead of counting it: all windows are decided together. */
  protected override async handleRequest({
    context,
    limit,
    ttl,
    throttler,
    getTracker,
    generateKey,
  }: ThrottlerRequest): Promise<boolean> {
    const { req } = this.getRequestResponse(context);
    const name = throttler.name!;
    const tracker = await getTracker(req, context);
    (req as AuthenticatedRequest).rateLimitCaller = tracker;
    const key = generateKey(context, tracker, name);
    this.collecting.get(req)?.push({ name, key, limit, seconds: ttl / 1000 });
    return true;
  }

  /** The account when a valid key was sent (all its keys share the quota), else the client IP. */
  protected override async getTracker(req: AuthenticatedRequest): Promise<string> {
    return req.principal ? accountTracker(req.principal) : `ip:${await super.getTracker(req)}`;
  }

  /** Per caller and window, not per route as throttler's default key is. */
  protected override generateKey(_context: ExecutionContext | undefined, tracker: string, name: string): string {
    return `rate-limit:${name}:${tracker}`;
  }

  private isPublic(context: ExecutionContext): boolean {
    return this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]) === true;
  }

  /** The decision, or undefined when Redis cannot answer and the policy is to admit. */
  private async decide(
    windows: WindowSpec[],
    principal?: Principal,
    refund?: WindowState[],
  ): Promise<RateLimitDecision | undefined> {
    try {
      return await this.store.consume(windows, principal?.keyId, refund);
    } catch (error) {
      if (!isDependencyUnavailable(error)) throw error;
      const policy = this.env.RATE_LIMIT_ON_REDIS_FAILURE;
      rateLimitRedisFailures.inc({ policy });
      this.warnAtMostEvery(WARNING_INTERVAL_MS, `Redis unavailable for rate limiting (${(error as Error).message})`);
      if (policy === 'closed') throw new ServiceUnavailableError('Rate limiting is unavailable; retry shortly.');
      return undefined;
    }
  }

  /** One line per interval during an outage, not one per request. */
  private warnAtMostEvery(intervalMs: number, message: string): void {
    this.unreportedFailures++;
    const now = Date.now();
    if (now - this.lastWarningAt < intervalMs) return;
    const policy = this.env.RATE_LIMIT_ON_REDIS_FAILURE === 'open' ? 'admitting' : 'answering 503';
    this.logger.warn(`${message}: ${policy} (${this.unreportedFailures} request(s) since the last warning)`);
    this.lastWarningAt = now;
    this.unreportedFailures = 0;
  }
}
