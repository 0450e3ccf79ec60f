import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { HeadersObject } from '@nestjs/swagger';
import { ErrorBodyDto } from '@app/core';

/** Spec section 8: carried by every response of the API. */
export const RATE_LIMIT_HEADERS: HeadersObject = {
  'X-RateLimit-Limit': { description: 'The limit that applies to the caller.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests remaining in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix timestamp at which the limit resets.', schema: { type: 'integer' } },
};

/** The headers of a page of a paginated list. */
export const PAGE_HEADERS: HeadersObject = {
  ...RATE_LIMIT_HEADERS,
  Link: { description: 'RFC 8288 link to the next page, when there is one.', schema: { type: 'string' } },
};

/** A context's own Error statuses and what they mean, e.g. `{ 409: 'Conflict: `email_taken`.' }`. */
export type ErrorDescriptions = Record<number, string>;

/** The statuses of the errors every context shares (`@app/core`'s and this library's). */
const ERROR_DESCRIPTIONS: ErrorDescriptions = {
  400: 'The request is invalid (`validation_failed`, `invalid_json`, `unsupported_content_type`).',
  401: 'API key missing or invalid (`unauthorized`).',
  404: 'No such resource (`not_found`).',
  410: 'The operation has been removed (`gone`).',
  413: 'The body is larger than 64 KiB (`payload_too_large`).',
  // Every route is rate limited, so rate limiting's codes are described here with the server's own.
  429: 'Rate limit exceeded (`rate_limited`), key temporarily banned (`api_key_banned`), or too many open connections from the client address (`too_many_connections`).',
  500: 'Unexpected failure (`internal_error`).',
  503: 'PostgreSQL or Redis cannot be reached (`service_unavailable`).',
};

const RETRY_AFTER: HeadersObject = {
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
};

/**
 * Documents the Error responses of an operation: shared statuses by number, a context's own with their
 * descriptions (`@ApiErrors(400, ACCOUNT_CONFLICT)`). 413, 429, 500 and 503 can answer any operation, so
 * they are always listed.
 */
export function ApiErrors(...errors: Array<number | ErrorDescriptions>): MethodDecorator & ClassDecorator {
  const descriptions: ErrorDescriptions = { ...ERROR_DESCRIPTIONS };
  const statuses = errors.flatMap((error) => {
    if (typeof error === 'number') return [error];
    Object.assign(descriptions, error);
    return Object.keys(error).map(Number);
  });
  const all = [...new Set([...statuses, 413, 429, 500, 503])].sort();
  return applyDecorators(
    ...all.map((status) =>
      ApiResponse({
        status,
        description: descriptions[status] ?? 'Error.',
        type: ErrorBodyDto,
        headers: status === 429 || status === 503 ? { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER } : RATE_LIMIT_HEADERS,
      }),
    ),
  );
}
