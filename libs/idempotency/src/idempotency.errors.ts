import { AppError, ValidationFailedError } from '@app/core';
import { VALIDATION_FAILED, type ErrorCode } from '@app/http';

/** The error codes an `@Idempotent()` operation adds (an invalid key is a `validation_failed`). */
export const IDEMPOTENCY_ERRORS: readonly ErrorCode[] = [
  VALIDATION_FAILED,
  {
    status: 409,
    code: 'idempotency_key_in_use',
    description: 'A request with the same `Idempotency-Key` is still running; retry after `Retry-After` seconds.',
    example: 'A request with this Idempotency-Key is still being processed; retry later.',
    headers: ['Retry-After'],
  },
  {
    status: 422,
    code: 'idempotency_key_reused',
    description: 'The `Idempotency-Key` was used before with a different request.',
    example: 'This Idempotency-Key was already used with a different request.',
  },
];

export class IdempotencyKeyReusedError extends AppError {
  constructor() {
    super(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
  }
}

export class IdempotencyKeyInUseError extends AppError {
  constructor() {
    super(
      409,
      'idempotency_key_in_use',
      'A request with this Idempotency-Key is still being processed; retry later.',
      undefined,
      {
        'Retry-After': '1',
      },
    );
  }
}

export class InvalidIdempotencyKeyError extends ValidationFailedError {
  constructor() {
    super('Idempotency-Key must be 1 to 255 printable ASCII characters.', [
      { field: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' },
    ]);
  }
}
