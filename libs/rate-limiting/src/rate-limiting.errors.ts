import { AppError } from '@app/core';

export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', `Rate limit exceeded: retry in ${retryAfterSeconds} s.`, undefined, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}

export class ApiKeyBannedError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(
      429,
      'api_key_banned',
      `This API key is temporarily banned for sending requests after being rate limited: retry in ${retryAfterSeconds} s.`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}
