import { FORBIDDEN, GONE, NOT_FOUND, type ApiTag, type ErrorCode } from '@app/http';
import type { ApiHeaderOptions, ApiParamOptions, HeadersObject } from '@nestjs/swagger';

export const PETS_API_TAG: ApiTag = { name: 'pets', description: 'Animals up for adoption and their categories.' };

export const PET_ID_PARAM: ApiParamOptions = {
  name: 'petId',
  description: 'Identifier of the animal.',
  schema: { type: 'integer', format: 'int64', minimum: 1 },
};

export const EXTERNAL_ID_PARAM: ApiParamOptions = {
  name: 'externalId',
  description: 'The shelter’s own identifier of the animal: 1 to 64 characters of `A–Z a–z 0–9 . _ : -`.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$', example: 'A-2024-0117' },
};

export const EXTERNAL_ID_TAKEN: ErrorCode = {
  status: 409,
  code: 'external_id_taken',
  description: 'Another animal of the same lister has this `externalId`.',
  example: 'Another of your pets has the externalId A-2024-0117.',
};

export const PET_NOT_FOUND: ErrorCode = { ...NOT_FOUND, description: 'No animal with this id.', example: 'No pet 42.' };
export const GET_PET_GONE: ErrorCode = {
  ...GONE,
  example: 'GET /pets/{petId} was removed on 5 December 2030; use GET /pets with the status filter.',
};

/** What every answer of the deprecated getPet carries, errors included. */
export const DEPRECATION_HEADERS: HeadersObject = {
  Deprecation: {
    description: 'RFC 9745: when this operation was deprecated, as `@` and Unix seconds.',
    schema: { type: 'string', example: '@1764892800' },
  },
  Sunset: {
    description: 'RFC 8594: when this operation is removed.',
    schema: { type: 'string', example: 'Thu, 05 Dec 2030 00:00:00 GMT' },
  },
  Link: {
    description: 'The operation that replaces this one: `</v1/pets>; rel="successor-version"`.',
    schema: { type: 'string' },
  },
};

export const ETAG_HEADER: HeadersObject = {
  ETag: {
    description:
      'Strong entity tag of the animal’s current version; it changes whenever the animal does. Send it back ' +
      'in `If-Match` (updatePet, deletePet) or `If-None-Match` (getPet).',
    schema: { type: 'string', example: '"1795612345678"' },
  },
};

export const IF_MATCH_HEADER: ApiHeaderOptions = {
  name: 'If-Match',
  required: false,
  description:
    'ETags (comma-separated) or `*`: act only if the animal is still at one of them, else `412` and nothing ' +
    'changes. Weak tags (`W/"…"`) never match. E.g. `"1795612345678"`.',
  // No `example`: Swagger UI would send it, and a stale tag refuses the change.
  schema: { type: 'string' },
};

export const IF_NONE_MATCH_HEADER: ApiHeaderOptions = {
  name: 'If-None-Match',
  required: false,
  description:
    'ETags (comma-separated) or `*`: answer `304` with no body if the animal is at one of them (weak ' +
    'comparison). E.g. `"1795612345678"`.',
  schema: { type: 'string' },
};

export const PET_HAS_OPEN_ORDER: ErrorCode = {
  status: 409,
  code: 'pet_has_open_order',
  description: 'The animal has a placed or approved order: its status changes only through that order, and it stays.',
  example:
    'Pet 42 has a placed or approved order: its status changes only through that order, and it cannot be removed.',
};

export const PET_PRECONDITION_FAILED: ErrorCode = {
  status: 412,
  code: 'precondition_failed',
  description: '`If-Match` names no current ETag of the animal; nothing changed.',
  example: 'If-Match matches no current ETag of pet 42; fetch it again.',
};

/** The refusals of a change or removal of a pet, besides its 404. */
export const PET_CHANGE_ERRORS: readonly ErrorCode[] = [
  {
    ...FORBIDDEN,
    description: 'The animal was listed by another account, or before listers were recorded.',
    example: 'Only the account that listed pet 42 may change or remove it.',
  },
  PET_HAS_OPEN_ORDER,
  PET_PRECONDITION_FAILED,
];
