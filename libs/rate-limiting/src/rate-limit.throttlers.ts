import { AuthenticatedRequest, Environment, SIGN_UP_RATE_LIMIT } from '@app/core';
import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { seconds, ThrottlerModuleOptions } from '@nestjs/throttler';
import type { RateLimitStore } from './rate-limit.store';

const principalOf = (context: ExecutionContext) => context.switchToHttp().getRequest<AuthenticatedRequest>().principal;

/**
 * The named throttlers. Limits resolve per request from the caller's principal (its plan, cached
 * by the authenticator and invalidated on plan changes), so no database query is made per request.
 */
export function throttlerOptions(
  env: Environment,
  reflector: Reflector,
  store: RateLimitStore,
): ThrottlerModuleOptions {
  return {
    storage: store,
    throttlers: [
      {
        name: 'minute',
        ttl: seconds(env.RATE_LIMIT_MINUTE_WINDOW_SECONDS),
        limit: (context) => principalOf(context)?.limits.perMinute ?? env.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
      },
      {
        name: 'day',
        ttl: seconds(env.RATE_LIMIT_DAY_WINDOW_SECONDS),
        limit: (context) => principalOf(context)?.limits.perDay ?? 0,
        skipIf: (context) => !principalOf(context),
      },
      {
        name: 'signup',
        ttl: seconds(env.RATE_LIMIT_SIGNUP_WINDOW_SECONDS),
        limit: env.RATE_LIMIT_SIGNUP_PER_HOUR,
        skipIf: (context) =>
          !reflector.getAllAndOverride<boolean>(SIGN_UP_RATE_LIMIT, [context.getHandler(), context.getClass()]),
      },
    ],
  };
}
