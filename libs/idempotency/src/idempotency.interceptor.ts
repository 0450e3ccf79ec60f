import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { from, lastValueFrom, Observable, of } from 'rxjs';
import type { AuthenticatedRequest } from '@app/core';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError, InvalidIdempotencyKeyError } from './idempotency.errors';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IDEMPOTENT_SECRET, SecretResponse } from './secret-response';
import { requestFingerprint } from './request-fingerprint';

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` (IETF draft): the first request with a key runs and its successful response is kept
 * for 24 hours; a retry with the same key and body replays it (status, body, `Location` and `ETag`) without a second effect, with a different
 * body it is refused (422), and while the first is still running it is told to retry (409). Keys are
 * scoped to the account. A failed request releases its key so the client can retry. A response that
 * carries a secret is stored without it, and its retries get the route's error instead of a replay.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly reflector: Reflector,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    const key = request.headers['idempotency-key'];
    if (key === undefined || !request.principal) return next.handle();
    if (typeof key !== 'string' || !KEY_FORMAT.test(key)) throw new InvalidIdempotencyKeyError();

    const accountId = request.principal.accountId;
    const print = requestFingerprint(request.method, request.baseUrl + request.path, request.body);
    const secret = this.reflector.get<SecretResponse | undefined>(IDEMPOTENT_SECRET, context.getHandler());
    const existing = await this.keys.reserve(accountId, key, print);
    if (existing) {
      if (!existing.fingerprint.equals(print)) throw new IdempotencyKeyReusedError();
      if (existing.response_status === null) throw new IdempotencyKeyInUseError();
      if (secret) throw secret.replay(existing.response_body as Record<string, unknown>);
      response.status(existing.response_status);
      response.setHeader('Idempotent-Replayed', 'true');
      if (existing.response_location) response.setHeader('Location', existing.response_location);
      if (existing.response_etag) response.setHeader('ETag', existing.response_etag);
      return of(existing.response_body);
    }

    // Nest applies @HttpCode after the interceptors, so the status to keep is read from the route.
    const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? 200;
    return from(this.runAndRecord(next, response, status, accountId, key, secret));
  }

  private async runAndRecord(
    next: CallHandler,
    response: Response,
    status: number,
    accountId: number,
    key: string,
    secret: SecretResponse | undefined,
  ): Promise<unknown> {
    try {
      const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
      await this.keys.record(accountId, key, {
        status,
        body: secret ? withoutFields(body as Record<string, unknown>, secret.fields) : body,
        location: (response.getHeader('Location') as string | undefined) ?? null,
        etag: (response.getHeader('ETag') as string | undefined) ?? null,
      });
      return body;
    } catch (error) {
      await this.keys.release(accountId, key).catch(() => undefined);
      throw error;
    }
  }
}

function withoutFields(body: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([field]) => !fields.includes(field)));
}
