import { AppError, ValidationFailedError } from '@app/core';
import type { ErrorDescriptions } from '@app/http';

/**
 * The Error statuses an `@Idempotent()` operation adds. The 409 text is the document's one description of a
 * conflict, which sign-up (`email_taken`) shares.
 */
export const IDEMPOTENCY_ERRORS: ErrorDescriptions = {
  409: 'Conflict: `email_taken`, or `idempotency_key_in_use` while a request with the same key runs.',
  422: 'The Idempotency-Key was used with a different request (`idempotency_key_reused`).',
};

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
