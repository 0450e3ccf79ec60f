import { AppError, NotFoundError, ValidationFailedError } from '@app/core';

export class EventNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`No event ${id}.`);
  }
}

export class WebhookEndpointNotFoundError extends NotFoundError {
  constructor(id: number | string) {
    super(`No webhook endpoint ${id} on this account.`);
  }
}

export class TooManyWebhookEndpointsError extends AppError {
  constructor(max: number) {
    super(409, 'too_many_webhook_endpoints', `An account has at most ${max} webhook endpoints: delete one first.`);
  }
}

/** A retry of an endpoint's creation: its secret was shown once and is not stored with the key, so it cannot be shown again. */
export class WebhookEndpointAlreadyCreatedError extends AppError {
  constructor(endpointId: number) {
    super(
      409,
      'webhook_endpoint_already_created',
      `This Idempotency-Key already created webhook endpoint ${endpointId}, whose secret was shown only in that ` +
        `response. Find it in GET /v1/webhook-endpoints (delete it if its secret was lost) and use a new ` +
        'Idempotency-Key to create another.',
    );
  }
}

/** A webhook URL that may not be delivered to: its scheme, or an address that is not public. */
export class WebhookUrlRefusedError extends ValidationFailedError {
  constructor(reason: string) {
    super(`url ${reason}`, [{ field: 'url', message: reason }]);
  }
}
