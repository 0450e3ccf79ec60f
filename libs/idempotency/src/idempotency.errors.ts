import { AppError, ValidationFailedError } from '@app/core';

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
