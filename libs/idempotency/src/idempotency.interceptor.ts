import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, Observable, of } from 'rxjs';
import type { AuthenticatedRequest } from '@app/core';
import { STREAMS_BODY } from '@app/http';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError, InvalidIdempotencyKeyError } from './idempotency.errors';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IDEMPOTENT_SECRET, SecretResponse } from './secret-response';
import { requestFingerprint } from './request-fingerprint';

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/** Where a route that streams its body finds the interceptor's admission (`admitStreamedBody`). */
const ADMIT_STREAMED_BODY = Symbol('admitStreamedBody');

type StreamedBodyRequest = Request & { [ADMIT_STREAMED_BODY]?: (digest: Buffer) => Promise<void> };

/** Thrown out of a handler whose streamed body turned out to be a retry: the interceptor replays instead. */
class Replay {
  constructor(readonly body: unknown) {}
}

/** One keyed request: what its record is made of. */
interface KeyedRequest {
  response: Response;
  status: number;
  accountId: number;
  key: string;
  secret: SecretResponse | undefined;
}

/**
 * Tells the `@Idempotent()` interceptor the SHA-256 of a body the route read itself, as soon as it is read
 * and before the request has any effect; a route that streams its body (`@StreamsBody()`) must call it.
 * A retry does not return: the interceptor answers it (the first response replayed, or 409/422). Without
 * an `Idempotency-Key` it does nothing.
 */
export async function admitStreamedBody(request: Request, digest: Buffer): Promise<void> {
  await (request as StreamedBodyRequest)[ADMIT_STREAMED_BODY]?.(digest);
}

/**
 * `Idempotency-Key` (IETF draft): the first request with a key runs and its successful response is kept
 * for 24 hours; a retry with the same key and body replays it (status, body, `Location` and `ETag`) without a second effect, with a different
 * body it is refused (422), and while the first is still running it is told to retry (409). Keys are
 * scoped to the account. A failed request releases its key so the client can retry. A response that
 * carries a secret is stored without it, and its retries get the route's error instead of a replay.
 * A body the route streams itself is known only once read: the key is taken then (`admitStreamedBody`).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly reflector: Reflector,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & StreamedBodyRequest>();
    const key = request.headers['idempotency-key'];
    if (key === undefined || !request.principal) return next.handle();
    if (typeof key !== 'string' || !KEY_FORMAT.test(key)) throw new InvalidIdempotencyKeyError();

    const handler = context.getHandler();
    const keyed: KeyedRequest = {
      response: context.switchToHttp().getResponse<Response>(),
      // Nest applies @HttpCode after the interceptors, so the status to keep is read from the route.
      status: this.reflector.get<number | undefined>(HTTP_CODE_METADATA, handler) ?? 200,
      accountId: request.principal.accountId,
      key,
      secret: this.reflector.get<SecretResponse | undefined>(IDEMPOTENT_SECRET, handler),
    };
    const fingerprint = (body: unknown) => requestFingerprint(request.method, request.baseUrl + request.path, body);

    if (this.reflector.get<boolean | undefined>(STREAMS_BODY, handler)) {
      let reserved = false;
      request[ADMIT_STREAMED_BODY] = async (digest) => {
        const replayed = await this.reserve(keyed, fingerprint({ sha256: digest.toString('hex') }));
        if (replayed) throw new Replay(replayed.body);
        reserved = true;
      };
      return from(this.runAndRecord(next, keyed, () => reserved));
    }
    const replayed = await this.reserve(keyed, fingerprint(request.body));
    return replayed ? of(replayed.body) : from(this.runAndRecord(next, keyed, () => true));
  }

  /**
   * Takes the key for this request; when a request took it before, answers as its retry: the first
   * response to replay (its headers set), or 409/422.
   */
  private async reserve(keyed: KeyedRequest, print: Buffer): Promise<{ body: unknown } | undefined> {
    const existing = await this.keys.reserve(keyed.accountId, keyed.key, print);
    if (!existing) return undefined;
    if (!existing.fingerprint.equals(print)) throw new IdempotencyKeyReusedError();
    if (existing.response_status === null) throw new IdempotencyKeyInUseError();
    if (keyed.secret) throw keyed.secret.replay(existing.response_body as Record<string, unknown>);
    const { response } = keyed;
    response.status(existing.response_status);
    response.setHeader('Idempotent-Replayed', 'true');
    if (existing.response_location) response.setHeader('Location', existing.response_location);
    if (existing.response_etag) response.setHeader('ETag', existing.response_etag);
    return { body: existing.response_body };
  }

  /** Runs the handler and keeps its response under the key, or frees the key when it fails. */
  private async runAndRecord(next: CallHandler, keyed: KeyedRequest, reserved: () => boolean): Promise<unknown> {
    const { response, status, accountId, key, secret } = keyed;
    try {
      const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
      if (reserved()) {
        await this.keys.record(accountId, key, {
          status,
          body: secret ? withoutFields(body as Record<string, unknown>, secret.fields) : body,
          location: (response.getHeader('Location') as string | undefined) ?? null,
          etag: (response.getHeader('ETag') as string | undefined) ?? null,
        });
      }
      return body;
    } catch (error) {
      if (error instanceof Replay) return error.body;
      if (reserved()) await this.keys.release(accountId, key).catch(() => undefined);
      throw error;
    }
  }
}

function withoutFields(body: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([field]) => !fields.includes(field)));
}
