import type { HeadersObject, ReferenceObject } from '@nestjs/swagger';

/**
 * Every header the service sends, described once under `components.headers`; responses refer to them.
 * The key is the component's name; `name` is the header's, when the two differ.
 */
const HEADERS = {
  'X-Request-Id': {
    description: 'The request’s id: the one the client sent (up to 128 of `A-Za-z0-9._:-`), else a new UUID.',
    schema: { type: 'string', maxLength: 128 },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the window with the fewest requests remaining.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests remaining in that window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'Unix time, in seconds, at which that window ends.',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Policy': {
    description: 'Every window that applies (IETF draft), e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left of each window (IETF draft), e.g. `"minute";r=59;t=42, "day";r=999;t=3600`.',
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'Whole seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 1 },
  },
  'WWW-Authenticate': {
    description: 'The scheme to authenticate with: `Bearer`.',
    schema: { type: 'string', enum: ['Bearer'] },
  },
  NextPage: {
    description:
      'RFC 8288 link to the next page, present when more items follow: `<…?cursor=…>; rel="next"`. The target ' +
      'is a URI reference: resolve it against the URL of the request (as browsers and HTTP libraries do), or ' +
      'pass its `cursor` query parameter to the same operation.',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored response of an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
} satisfies Record<string, HeadersObject[string]>;

export type ResponseHeaderName = keyof typeof HEADERS;

export const RESPONSE_HEADER_COMPONENTS: HeadersObject = HEADERS;

/** A reference to a described header, to put in a response's `headers` under the header's name. */
export function headerRef(name: ResponseHeaderName): ReferenceObject {
  return { $ref: `#/components/headers/${name}` };
}

/** Headers of every response that reached the application: its id and the caller's rate limits. */
export const STANDARD_HEADER_NAMES: readonly ResponseHeaderName[] = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
];

/** The headers of a page of a paginated list, besides the standard ones. */
export const PAGE_HEADERS: HeadersObject = { Link: headerRef('NextPage') };

/**
 * `Location` of a created resource: a root-relative URI reference, resolved against the URL of the
 * request (RFC 9110), e.g. `/v1/pets/1`.
 */
export function locationHeader(example: string): HeadersObject {
  return {
    Location: {
      description:
        `Where the created resource is, as a path from the server’s root, e.g. \`${example}\`: resolve it ` +
        'against the URL of the request (RFC 9110), not against the documented server URL.',
      schema: { type: 'string', format: 'uri-reference' },
    },
  };
}
