import { NotFoundError } from '@app/core';

/** A token this service did not sign, or one altered since. */
export class UnsubscribeLinkNotFoundError extends NotFoundError {
  constructor() {
    super('This unsubscribe link is not one the service sent.');
  }
}
