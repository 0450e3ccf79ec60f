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

/** A retry of a secret's rotation: the new secret was shown once and is not stored with the key. */
export class WebhookSecretAlreadyRotatedError extends AppError {
  constructor(endpointId: number) {
    super(
      409,
      'webhook_secret_already_rotated',
      `This Idempotency-Key already rotated the secret of webhook endpoint ${endpointId}, and the new secret was ` +
        'shown only in that response. If it was lost, rotate again with a new Idempotency-Key.',
    );
  }
}

/** A redelivery or a test event to an endpoint that is disabled: nothing would be sent. */
export class WebhookEndpointDisabledError extends AppError {
  constructor(endpointId: number) {
    super(
      409,
      'webhook_endpoint_disabled',
      `Webhook endpoint ${endpointId} is disabled: enable it (PATCH with "enabled": true) to send it events.`,
    );
  }
}

/** A redelivery of an event whose delivery to the endpoint is still under way. */
export class WebhookDeliveryPendingError extends AppError {
  constructor(eventId: string, endpointId: number) {
    super(
      409,
      'webhook_delivery_pending',
      `Event ${eventId} is still being delivered to webhook endpoint ${endpointId}: its pending attempt is listed ` +
        'in its deliveries; redeliver it once that attempt has ended.',
    );
  }
}
