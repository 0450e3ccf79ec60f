import { IS_PUBLIC, SIGN_UP_RATE_LIMIT, SKIP_RATE_LIMIT } from '@app/http';
import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { RateLimitCaller } from './rate-limit-caller';
import { windowKey } from './rate-limit.keys';
import { RateLimitSettings } from './rate-limit.settings';
import { WindowSpec } from './rate-windows';

const window = (name: string, tracker: string, limit: number, seconds: number): WindowSpec => ({
  name,
  key: windowKey(name, tracker),
  limit,
  seconds,
});

/**
 * Which windows apply to a caller on a route, from the route's metadata and the caller's plan (which
 * travels with its cached key, so no database query is made per request). `route` is undefined for a
 * request no route matched: it has no metadata, so it is limited as on a route that takes keys.
 */
@Injectable()
export class RateLimitPolicy {
  constructor(
    private readonly reflector: Reflector,
    private readonly settings: RateLimitSettings,
  ) {}

  /** `@SkipRateLimit()` (health, metrics): no window applies, and no headers are sent. */
  skips(route?: ExecutionContext): boolean {
    return this.marks(route, SKIP_RATE_LIMIT);
  }

  /** False on a `@Public()` route (sign-up): its callers count by address, even when they send a key. */
  takesKeys(route?: ExecutionContext): boolean {
    return !this.marks(route, IS_PUBLIC);
  }

  /**
   * An account's minute and day windows from its plan; a publishable key's minute window per client
   * address (`RATE_LIMIT_PUBLISHABLE_PER_MINUTE`), whatever its account's plan; for a caller by address, the keyless minute
   * window, and on sign-up (`@SignUpRateLimit()`) the sign-up window too. Windows are keyed per caller,
   * not per route: one quota covers every operation.
   */
  windowsFor(caller: RateLimitCaller, route?: ExecutionContext): WindowSpec[] {
    const { tracker, principal } = caller;
    const { settings } = this;
    if (principal?.allowedOrigins) {
      return [
        window(
          'minute',
          tracker,
          settings.RATE_LIMIT_PUBLISHABLE_PER_MINUTE,
          settings.RATE_LIMIT_MINUTE_WINDOW_SECONDS,
        ),
      ];
    }
    if (principal) {
      return [
        window('minute', tracker, principal.limits.perMinute, settings.RATE_LIMIT_MINUTE_WINDOW_SECONDS),
        window('day', tracker, principal.limits.perDay, settings.RATE_LIMIT_DAY_WINDOW_SECONDS),
      ];
    }
    const minute = window(
      'minute',
      tracker,
      settings.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
      settings.RATE_LIMIT_MINUTE_WINDOW_SECONDS,
    );
    if (!this.marks(route, SIGN_UP_RATE_LIMIT)) return [minute];
    return [
      minute,
      window('signup', tracker, settings.RATE_LIMIT_SIGNUP_PER_HOUR, settings.RATE_LIMIT_SIGNUP_WINDOW_SECONDS),
    ];
  }

  private marks(route: ExecutionContext | undefined, metadataKey: string): boolean {
    if (!route) return false;
    return this.reflector.getAllAndOverride<boolean>(metadataKey, [route.getHandler(), route.getClass()]) === true;
  }
}
