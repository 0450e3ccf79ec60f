import { NOT_FOUND, type ApiTag, type ErrorCode } from '@app/http';

export const ACCOUNTS_API_TAG: ApiTag = { name: 'accounts', description: 'Sign-up and the caller’s account.' };
export const KEYS_API_TAG: ApiTag = { name: 'keys', description: 'The caller’s API keys.' };

export const EMAIL_TAKEN: ErrorCode = {
  status: 409,
  code: 'email_taken',
  description: 'An account with this email address (compared in its canonical form) already exists.',
  example: 'An account with this email address already exists.',
};

export const KEY_ALREADY_ISSUED: ErrorCode = {
  status: 409,
  code: 'key_already_issued',
  description:
    'A retry with the `Idempotency-Key` of a key already issued; `message` names that key, whose secret is ' +
    'not shown again.',
  example:
    'This Idempotency-Key already issued key 12, whose secret was shown only in that response. Find key 12 in ' +
    'GET /v1/keys (revoke it if its secret was lost) and use a new Idempotency-Key to issue another.',
};

export const KEY_NOT_FOUND: ErrorCode = { ...NOT_FOUND, example: 'No API key 12 on this account.' };

export const INSUFFICIENT_SCOPE: ErrorCode = {
  status: 403,
  code: 'insufficient_scope',
  description:
    'The key lacks the scope the operation needs (named in `message` and in `WWW-Authenticate`), or cannot ' +
    'grant the scopes asked.',
  example: 'This API key lacks the scope pets:write that this operation needs.',
  headers: ['WWW-Authenticate'],
};

export const ORIGIN_NOT_ALLOWED: ErrorCode = {
  status: 403,
  code: 'origin_not_allowed',
  description: 'A publishable key sent from an `Origin` that is not among its `allowedOrigins`.',
  example:
    'This publishable key may not be used from https://elsewhere.example: add the origin to the key’s allowedOrigins.',
};
