import { NOT_FOUND, type ApiTag, type ErrorCode } from '@app/http';
import type { ApiParamOptions } from '@nestjs/swagger';

export const EMAIL_API_TAG: ApiTag = {
  name: 'email',
  description: 'The one-click unsubscribe links of the emails the service sends.',
};

export const UNSUBSCRIBE_LINK_NOT_FOUND: ErrorCode = {
  ...NOT_FOUND,
  description: 'The token is not one the service signed, or was altered.',
  example: 'This unsubscribe link is not one the service sent.',
};

export const UNSUBSCRIBE_TOKEN_PARAM: ApiParamOptions = {
  name: 'token',
  description: 'The token of the link in the email’s `List-Unsubscribe` header and body.',
  schema: {
    type: 'string',
    example: 'WyJhZGFAZXhhbXBsZS5jb20iLCJzYXZlZF9zZWFyY2g6c3JjaF8xIl0.2tq3aXQ3Z0lZ8b9k1hX4oX1QbNf0r5yq0c1v2w3x4y5',
  },
};

/** An HTML page, the answer of both operations. */
export const HTML_PAGE = { 'text/html': { schema: { type: 'string' as const } } };
