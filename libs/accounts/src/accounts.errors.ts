import { AppError, NotFoundError } from '@app/core';

export class EmailTakenError extends AppError {
  constructor() {
    super(409, 'email_taken', 'An account with this email address already exists.');
  }
}

/** A retry of a key's issue: its secret was shown once and is not stored, so it cannot be shown again. */
export class ApiKeyAlreadyIssuedError extends AppError {
  constructor(keyId: number) {
    super(
      409,
      'key_already_issued',
      `This Idempotency-Key already issued key ${keyId}, whose secret was shown only in that response. ` +
        `Find key ${keyId} in GET /v1/keys (revoke it if its secret was lost) and use a new Idempotency-Key ` +
        'to issue another.',
    );
  }
}

export class ApiKeyNotFoundError extends NotFoundError {
  /** `onAccount`: looked for among the caller's keys (a request), not among every account's (an operator's command). */
  constructor(keyId: number | string, onAccount = true) {
    super(onAccount ? `No API key ${keyId} on this account.` : `No API key ${keyId}.`);
  }
}

export class AccountNotFoundError extends NotFoundError {
  constructor(reference: string) {
    super(`No account ${reference}.`);
  }
}

/** RFC 6750: the key is valid but lacks the scope; the challenge names the scope to ask for. */
export class InsufficientScopeError extends AppError {
  constructor(scope: string, message = `This API key lacks the scope ${scope} that this operation needs.`) {
    super(403, 'insufficient_scope', message, undefined, {
      'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
    });
  }
}

export class OriginNotAllowedError extends AppError {
  constructor(origin: string) {
    super(
      403,
      'origin_not_allowed',
      `This publishable key may not be used from ${origin}: add the origin to the key’s allowedOrigins.`,
    );
  }
}
