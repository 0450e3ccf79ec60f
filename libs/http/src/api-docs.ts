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

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is invalid (`validation_failed`, `invalid_json`, `unsupported_content_type`).',
  401: 'API key missing or invalid (`unauthorized`).',
  404: 'No such resource (`not_found`).',
  409: 'Conflict: `email_taken`, or `idempotency_key_in_use` while a request with the same key runs.',
  410: 'The operation has been removed (`gone`).',
  413: 'The body is larger than 64 KiB (`payload_too_large`).',
  422: 'The Idempotency-Key was used with a different request (`idempotency_key_reused`).',
  429: 'Rate limit exceeded (`rate_limited`), key temporarily banned (`api_key_banned`), or too many open connections from the client address (`too_many_connections`).',
  500: 'Unexpected failure (`internal_error`).',
  503: 'PostgreSQL or Redis cannot be reached (`service_unavailable`).',
};

const RETRY_AFTER: HeadersObject = {
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
};

/**
 * Documents the Error responses of an operation. 413, 429, 500 and 503 can answer any operation, so
 * they are always listed.
 */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  const all = [...new Set([...statuses, 413, 429, 500, 503])].sort();
  return applyDecorators(
    ...all.map((status) =>
      ApiResponse({
        status,
        description: ERROR_DESCRIPTIONS[status] ?? 'Error.',
        type: ErrorBodyDto,
        headers: status === 429 || status === 503 ? { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER } : RATE_LIMIT_HEADERS,
      }),
    ),
  );
}
