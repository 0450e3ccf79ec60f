/** The BullMQ queue of the store's jobs, and its job names: used nowhere else as literals. */
export const ORDERS_QUEUE = 'orders';
export const EXPIRE_ORDER_JOB = 'expire';
/** Injection token of the queue's own request-path connection to Redis. */
export const ORDERS_QUEUE_REDIS = Symbol('ORDERS_QUEUE_REDIS');

export interface ExpireOrderJobData {
  orderId: number;
}

/** One expiry job per order: scheduling it again adds no second job. */
export function expiryJobId(orderId: number): string {
  return `expire-${orderId}`;
}
