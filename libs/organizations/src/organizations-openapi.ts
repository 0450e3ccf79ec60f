import { NOT_FOUND, type ApiTag, type ErrorCode } from '@app/http';
import type { ApiParamOptions, HeadersObject } from '@nestjs/swagger';

export const ORGANIZATIONS_API_TAG: ApiTag = {
  name: 'organizations',
  description: 'Shelters and rescues: the profile an account publishes, and finding them.',
};

export const ORGANIZATION_ID_PARAM: ApiParamOptions = {
  name: 'organizationId',
  description: 'Identifier of the organisation.',
  schema: { type: 'string', example: 'org_4k9w2x7q1m3z8c5v' },
};

export const NO_ORGANIZATION: ErrorCode = {
  ...NOT_FOUND,
  description: 'The account has published no organisation.',
  example: 'Your account has published no organization: PUT /v1/organization publishes one.',
};

export const ORGANIZATION_NOT_FOUND: ErrorCode = {
  ...NOT_FOUND,
  description: 'No organisation with this id.',
  example: 'No organization org_4k9w2x7q1m3z8c5v.',
};

export const ORGANIZATION_PRECONDITION_FAILED: ErrorCode = {
  status: 412,
  code: 'precondition_failed',
  description: '`If-Match` names no current ETag of the organisation; nothing changed.',
  example: 'If-Match matches no current ETag of your organization; fetch it again.',
};

export const ORGANIZATION_ETAG_HEADER: HeadersObject = {
  ETag: {
    description: 'Strong entity tag of the profile’s current version; send it back in `If-Match`.',
    schema: { type: 'string', example: '"1795612345678901"' },
  },
};
