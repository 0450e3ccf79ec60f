import { NOT_FOUND, type ApiTag, type ErrorCode } from '@app/http';
import type { ApiParamOptions } from '@nestjs/swagger';

export const EVENTS_API_TAG: ApiTag = { name: 'events', description: 'The events of the caller’s account.' };
export const WEBHOOKS_API_TAG: ApiTag = {
  name: 'webhooks',
  description: 'Endpoints that receive the caller’s events as signed HTTP POSTs, and their delivery log.',
};

export const EVENT_NOT_FOUND: ErrorCode = {
  ...NOT_FOUND,
  description: 'No event with this id among the caller’s, or it is older than 30 days.',
  example: 'No event evt_3kTzq0m1Yd9c2XwB7nQe5RfA.',
};

export const WEBHOOK_ENDPOINT_NOT_FOUND: ErrorCode = {
  ...NOT_FOUND,
  description: 'No webhook endpoint with this id on the caller’s account.',
  example: 'No webhook endpoint 3 on this account.',
};

export const WEBHOOK_ENDPOINT_ID_PARAM: ApiParamOptions = {
  name: 'endpointId',
  description: 'Identifier of the webhook endpoint.',
  schema: { type: 'integer', format: 'int64', minimum: 1 },
};

/** createWebhookEndpoint's own error codes (its Idempotency-Key's come with `@Idempotent()`). */
export const CREATE_WEBHOOK_ENDPOINT_ERRORS: readonly ErrorCode[] = [
  {
    status: 409,
    code: 'too_many_webhook_endpoints',
    description: 'The account already has 10 webhook endpoints.',
    example: 'An account has at most 10 webhook endpoints: delete one first.',
  },
  {
    status: 409,
    code: 'webhook_endpoint_already_created',
    description:
      'A retry with the `Idempotency-Key` of an endpoint already created; `message` names that endpoint, whose ' +
      'secret is not shown again.',
    example:
      'This Idempotency-Key already created webhook endpoint 3, whose secret was shown only in that response. ' +
      'Find it in GET /v1/webhook-endpoints (delete it if its secret was lost) and use a new Idempotency-Key to ' +
      'create another.',
  },
];

/** The 404 of an operation on one of the caller's endpoints with one of its events. */
export const WEBHOOK_ENDPOINT_OR_EVENT_NOT_FOUND: ErrorCode = {
  ...NOT_FOUND,
  description:
    'No webhook endpoint with this id on the caller’s account, or no event with this id among the caller’s ' +
    '(events are kept 30 days).',
  example: 'No event evt_3kTzq0m1Yd9c2XwB7nQe5RfA.',
};

export const WEBHOOK_ENDPOINT_DISABLED: ErrorCode = {
  status: 409,
  code: 'webhook_endpoint_disabled',
  description: 'The endpoint is disabled, so nothing would be sent: enable it first.',
  example: 'Webhook endpoint 3 is disabled: enable it (PATCH with "enabled": true) to send it events.',
};

export const WEBHOOK_DELIVERY_PENDING: ErrorCode = {
  status: 409,
  code: 'webhook_delivery_pending',
  description:
    'The event’s delivery to this endpoint is still under way (awaiting dispatch, or a pending attempt that ' +
    'its retries follow); redeliver once it has ended.',
  example:
    'Event evt_3kTzq0m1Yd9c2XwB7nQe5RfA is still being delivered to webhook endpoint 3: its pending attempt is ' +
    'listed in its deliveries; redeliver it once that attempt has ended.',
};

export const WEBHOOK_SECRET_ALREADY_ROTATED: ErrorCode = {
  status: 409,
  code: 'webhook_secret_already_rotated',
  description: 'A retry with the `Idempotency-Key` of a rotation already made; the new secret is not shown again.',
  example:
    'This Idempotency-Key already rotated the secret of webhook endpoint 3, and the new secret was shown only in ' +
    'that response. If it was lost, rotate again with a new Idempotency-Key.',
};
