import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { from, lastValueFrom, Observable, of } from 'rxjs';
import { DataSource } from 'typeorm';
import type { AuthenticatedRequest } from '../http/principal';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError, InvalidIdempotencyKeyError } from './idempotency.errors';
import { requestFingerprint } from './request-fingerprint';

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
/** How long a reservation shields a running request; after it, a retry may take the key over. */
const RESERVATION_SECONDS = 60;
const RETENTION = '24 hours';

interface StoredKey {
  fingerprint: Buffer;
  response_status: number | null;
  response_body: unknown;
  response_location: string | null;
  reserved: boolean;
}

/**
 * `Idempotency-Key` (IETF draft): the first request with a key runs and its successful response is kept
 * for 24 hours; a retry with the same key and body replays it without a second effect, with a different
 * body it is refused (422), and while the first is still running it is told to retry (409). Keys are
 * scoped to the account. A failed request releases its key so the client can retry.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
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
    const existing = await this.reserve(accountId, key, print);
    if (existing) {
      if (!existing.fingerprint.equals(print)) throw new IdempotencyKeyReusedError();
      if (existing.response_status === null) throw new IdempotencyKeyInUseError();
      response.status(existing.response_status);
      response.setHeader('Idempotent-Replayed', 'true');
      if (existing.response_location) response.setHeader('Location', existing.response_location);
      return of(existing.response_body);
    }

    // Nest applies @HttpCode after the interceptors, so the status to keep is read from the route.
    const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? 200;
    return from(this.runAndRecord(next, response, status, accountId, key));
  }

  /** Takes the key, or returns what is stored under it. */
  private async reserve(accountId: number, key: string, print: Buffer): Promise<StoredKey | undefined> {
    const [taken]: Array<{ taken: boolean } & StoredKey> = await this.dataSource.query(
      `WITH expired AS (
         DELETE FROM idempotency_keys
          WHERE account_id = $1 AND key = $2 AND created_at < now() - interval '${RETENTION}'
       )
       INSERT INTO idempotency_keys AS k (account_id, key, fingerprint, locked_until)
       VALUES ($1, $2, $3, now() + interval '${RESERVATION_SECONDS} seconds')
       ON CONFLICT (account_id, key) DO UPDATE
          SET locked_until = EXCLUDED.locked_until
        WHERE k.response_status IS NULL AND k.locked_until < now() AND k.fingerprint = EXCLUDED.fingerprint
       RETURNING true AS taken`,
      [accountId, key, print],
    );
    if (taken) return undefined;
    const [stored]: StoredKey[] = await this.dataSource.query(
      `SELECT fingerprint, response_status, response_body, response_location
         FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
      [accountId, key],
    );
    // Deleted as expired between the two statements: take it again.
    return stored ?? this.reserve(accountId, key, print);
  }

  private async runAndRecord(
    next: CallHandler,
    response: Response,
    status: number,
    accountId: number,
    key: string,
  ): Promise<unknown> {
    try {
      const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
      await this.dataSource.query(
        `UPDATE idempotency_keys
            SET response_status = $3, response_body = $4, response_location = $5, locked_until = NULL
          WHERE account_id = $1 AND key = $2`,
        [accountId, key, status, JSON.stringify(body ?? null), response.getHeader('Location') ?? null],
      );
      return body;
    } catch (error) {
      await this.dataSource
        .query('DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND response_status IS NULL', [
          accountId,
          key,
        ])
        .catch(() => undefined);
      throw error;
    }
  }
}
