import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

export interface RateLimits {
  perMinute: number;
  perDay: number;
}

/** Who is calling: set on the request by the bearer guard, read by rate limiting and controllers. */
export interface Principal {
  accountId: number;
  keyId: number;
  limits: RateLimits;
  /** The scopes the key holds (`*` for all); the bearer guard checks a route's against them. */
  scopes: readonly string[];
  /** When the key stops working, if it expires: the keys it makes may not outlive it. */
  expiresAt?: Date;
  /**
   * Set for a publishable key only: the origins of the pages that may use it. Such a key reads public
   * data only and is limited per client address, never against its account's plan.
   */
  allowedOrigins?: readonly string[];
}

export type AuthenticatedRequest = Request & {
  principal?: Principal;
  /** Whom the rate limits counted the request against (`account:<id>` or `ip:<address>`), once they decided. */
  rateLimitCaller?: string;
};

/** Injects the caller's Principal into a controller method. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without the bearer guard');
  return principal;
});
