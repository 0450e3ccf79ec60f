import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../http/api-docs';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/** Makes a creating operation safe to retry with an `Idempotency-Key` header, and documents it. */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Any unique string (1–255 printable characters, e.g. a UUID). A retry with the same key and body ' +
        'within 24 hours replays the first response (with `Idempotent-Replayed: true`) without a second effect.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    }),
    ApiErrors(409, 422),
  );
}
