import { NotFoundError } from '@app/core';

export class MessageNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`No message ${id}.`);
  }
}

/** A transport could not deliver a message; the job fails and BullMQ retries it with backoff. */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
}
