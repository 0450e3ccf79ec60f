import { DECORATORS } from '@nestjs/swagger';
import type { ResponseHeaderName } from './response-headers';

/** One error code the service answers with: described once, wherever operations list it. */
export interface ErrorCode {
  status: number;
  code: string;
  /** When the code is answered; one sentence. */
  description: string;
  /** A `message` the service sends with it, for the document's example. */
  example: string;
  /** Headers that come with it besides the standard ones. */
  headers?: ResponseHeaderName[];
  /** Answered only to a request that may carry a body (POST, PUT, PATCH). */
  bodyOnly?: boolean;
  /** Answered by the HTTP server before the application: without the standard headers. */
  beforeApplication?: boolean;
}

/** The response extension that carries an operation's codes of one status to the document's finishing. */
export const ERROR_CODES_EXTENSION = 'x-error-codes';

export const VALIDATION_FAILED: ErrorCode = {
  status: 400,
  code: 'validation_failed',
  description: 'A parameter, body field or header is missing or invalid; `message` names it.',
  example: 'limit must not be greater than 100',
};
const INVALID_JSON: ErrorCode = {
  status: 400,
  code: 'invalid_json',
  description: 'The body, sent as `application/json`, is not valid JSON.',
  example: 'The request body is not valid JSON.',
};
const UNSUPPORTED_CONTENT_TYPE: ErrorCode = {
  status: 400,
  code: 'unsupported_content_type',
  description: 'A body whose `Content-Type` is not `application/json` (nor another type the request body lists).',
  example: 'The request body must be sent as application/json.',
  bodyOnly: true,
};
const UNAUTHORIZED: ErrorCode = {
  status: 401,
  code: 'unauthorized',
  description: 'The API key is missing, malformed, unknown or revoked.',
  example: 'A valid API key is required: send it as "Authorization: Bearer <API_KEY>".',
  headers: ['WWW-Authenticate'],
};
/** Contexts say who may do what: `{ ...FORBIDDEN, description, example }`. */
export const FORBIDDEN: ErrorCode = {
  status: 403,
  code: 'forbidden',
  description: 'The key is valid, but its account may not do this to this resource.',
  example: 'Your account may not do this.',
};
export const NOT_FOUND: ErrorCode = {
  status: 404,
  code: 'not_found',
  description: 'No such resource, or one of another account.',
  example: 'No such resource.',
};
export const GONE: ErrorCode = {
  status: 410,
  code: 'gone',
  description: 'The operation has reached its sunset and was removed.',
  example: 'GET /v1/pets/{petId} was removed on 5 December 2030: use GET /v1/pets.',
};
const PAYLOAD_TOO_LARGE: ErrorCode = {
  status: 413,
  code: 'payload_too_large',
  description: 'The body is larger than 64 KiB; the connection is closed.',
  example: 'The request body is larger than 64 KiB.',
};
// Every route is rate limited, so rate limiting's codes are described here with the server's own.
const RATE_LIMITED: ErrorCode = {
  status: 429,
  code: 'rate_limited',
  description: 'A window of the caller’s limits is exhausted; retry after `Retry-After` seconds.',
  example: 'Rate limit exceeded: retry in 42 s.',
  headers: ['Retry-After'],
};
const API_KEY_BANNED: ErrorCode = {
  status: 429,
  code: 'api_key_banned',
  description: 'The key kept sending after being rate limited and is banned for the rest of `Retry-After`.',
  example: 'This API key is temporarily banned for sending requests after being rate limited: retry in 600 s.',
  headers: ['Retry-After'],
};
const TOO_MANY_CONNECTIONS: ErrorCode = {
  status: 429,
  code: 'too_many_connections',
  description: 'The client address holds too many open connections; this one is closed.',
  example: 'Too many open connections from this address; close one or retry shortly.',
  headers: ['Retry-After'],
};
const HEADERS_TOO_LARGE: ErrorCode = {
  status: 431,
  code: 'headers_too_large',
  description: 'The request headers are larger than 16 KiB; the connection is closed.',
  example: 'The request headers are too large.',
  beforeApplication: true,
};
const INTERNAL_ERROR: ErrorCode = {
  status: 500,
  code: 'internal_error',
  description: 'An unexpected failure, logged with the request id.',
  example: 'An unexpected error occurred. It has been logged.',
};
const SERVICE_UNAVAILABLE: ErrorCode = {
  status: 503,
  code: 'service_unavailable',
  description: 'PostgreSQL or Redis cannot be reached, or a statement ran too long.',
  example: 'A backing service is unavailable; retry shortly.',
  headers: ['Retry-After'],
};

/** What a shared status stands for when an operation lists it by number. */
const SHARED_BY_STATUS: Record<number, ErrorCode[]> = {
  400: [VALIDATION_FAILED],
  401: [UNAUTHORIZED],
  404: [NOT_FOUND],
  410: [GONE],
};

/** What any operation may answer, whatever it does. */
const ALWAYS: ErrorCode[] = [
  INVALID_JSON,
  UNSUPPORTED_CONTENT_TYPE,
  PAYLOAD_TOO_LARGE,
  RATE_LIMITED,
  API_KEY_BANNED,
  TOO_MANY_CONNECTIONS,
  HEADERS_TOO_LARGE,
  INTERNAL_ERROR,
  SERVICE_UNAVAILABLE,
];

type Responses = Record<string, Record<string, unknown>>;

/**
 * Documents the Error responses of an operation: shared statuses by number (`400`, `401`, `404`, `410`),
 * a context's own codes as they are (`@ApiErrors(400, EMAIL_TAKEN)`). What any operation may answer is
 * always added. Several uses on one operation add up; the document's finishing turns each status's codes
 * into its description, headers, `code` enumeration and one example per code.
 */
export function ApiErrors(...errors: Array<number | ErrorCode | readonly ErrorCode[]>): MethodDecorator {
  const listed = errors.flatMap((error) => (typeof error === 'number' ? (SHARED_BY_STATUS[error] ?? []) : error));
  return (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const responses: Responses = { ...(Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) as Responses) };
    for (const error of [...listed, ...ALWAYS]) {
      const status = String(error.status);
      const codes = (responses[status]?.[ERROR_CODES_EXTENSION] as ErrorCode[] | undefined) ?? [];
      if (codes.some((known) => known.code === error.code)) continue;
      responses[status] = { description: '', [ERROR_CODES_EXTENSION]: [...codes, error] };
    }
    Reflect.defineMetadata(DECORATORS.API_RESPONSE, responses, handler);
    return descriptor;
  };
}
