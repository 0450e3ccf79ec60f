import { AuthenticatedRequest, Principal, UnauthorizedError } from '@app/core';
import { IS_PUBLIC } from '@app/http';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InsufficientScopeError, OriginNotAllowedError } from '../accounts.errors';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { REQUIRED_SCOPE, ScopeRequirement } from './required-scope.decorator';
import { ALL_SCOPES, holdsScope } from './scopes';

/**
 * A route that declares nothing needs every power: a route added without `@RequiredScope` is refused to
 * every restricted key rather than served to all (a test walks the routes so that none is left so).
 */
const UNDECLARED: ScopeRequirement = { scope: ALL_SCOPES, publishable: false };

/**
 * Global guard: every route needs a valid API key unless marked `@Public()`, and the key must hold the
 * scope the route declares (`@RequiredScope`). A publishable key is served only on the routes marked for
 * it, and only to pages of its origins. Everything it checks came with the key's one cached lookup.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const principal = await this.authenticator.identify(request);
    if (!principal) {
      throw new UnauthorizedError(
        request.headers.authorization === undefined
          ? 'An API key is required: send it as "Authorization: Bearer <API_KEY>".'
          : 'The API key is malformed, unknown, expired or revoked.',
      );
    }
    if (principal.allowedOrigins) refuseForeignOrigin(principal.allowedOrigins, request.headers.origin);
    authorize(principal, this.reflector.getAllAndOverride<ScopeRequirement>(REQUIRED_SCOPE, targets) ?? UNDECLARED);
    return true;
  }
}

function authorize(principal: Principal, required: ScopeRequirement): void {
  if (principal.allowedOrigins && !required.publishable) {
    throw new InsufficientScopeError(
      required.scope,
      `A publishable key reads public listings only; this operation needs a secret key with ${required.scope}.`,
    );
  }
  if (!holdsScope(principal.scopes, required.scope)) throw new InsufficientScopeError(required.scope);
}

/** A request without `Origin` (a server's) is served; a browser's is served only from the key's origins. */
function refuseForeignOrigin(allowedOrigins: readonly string[], origin: string | undefined): void {
  if (origin !== undefined && !allowedOrigins.includes(origin)) throw new OriginNotAllowedError(origin);
}
