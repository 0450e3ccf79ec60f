import { AuthenticatedRequest, UnauthorizedError } from '@app/core';
import { IS_PUBLIC } from '@app/http';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeyAuthenticator } from './api-key-authenticator';

/** Global guard: every route needs a valid API key unless marked `@Public()`. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (await this.authenticator.identify(request)) return true;
    throw new UnauthorizedError(
      request.headers.authorization === undefined
        ? 'An API key is required: send it as "Authorization: Bearer <API_KEY>".'
        : 'The API key is malformed, unknown or revoked.',
    );
  }
}
