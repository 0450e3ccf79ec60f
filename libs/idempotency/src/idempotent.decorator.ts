import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors, ApiHeadersOnSuccess, headerRef } from '@app/http';
import { IDEMPOTENCY_ERRORS } from './idempotency.errors';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IDEMPOTENT_SECRET, SecretResponse } from './secret-response';

/**
 * Makes a creating operation safe to retry with an `Idempotency-Key` header, and documents it. A
 * route whose response carries a secret declares it, and its retries are answered by `secret.replay`.
 */
export function Idempotent<T, F extends keyof T>(options: { secret?: SecretResponse<T, F> } = {}): MethodDecorator {
  const retry = options.secret
    ? 'has no second effect and never shows the secret again: it is answered with 409, naming what the first ' +
      'request created.'
    : 'replays the first response (with `Idempotent-Replayed: true`) without a second effect.';
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    SetMetadata(IDEMPOTENT_SECRET, options.secret),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Any unique string (1–255 printable characters, e.g. a UUID). A retry with the same key and body ' +
        `within 24 hours ${retry}`,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    }),
    ApiErrors(IDEMPOTENCY_ERRORS),
    // A secret is never replayed, so neither is a response that carries one.
    ...(options.secret ? [] : [ApiHeadersOnSuccess({ 'Idempotent-Replayed': headerRef('Idempotent-Replayed') })]),
  );
}
