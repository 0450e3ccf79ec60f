/** The BullMQ queue that carries webhook deliveries, and its job name: used nowhere else as literals. */
export const WEBHOOKS_QUEUE = 'webhooks';
export const DELIVER_EVENT_JOB = 'deliver';

/** One event to one endpoint. */
export interface DeliverEventJobData {
  eventId: string;
  endpointId: number;
}

/** The job id names the event and the endpoint, so enqueuing the same delivery again adds no second job. */
export function deliveryJobId(delivery: DeliverEventJobData): string {
  return `${delivery.eventId}.${delivery.endpointId}`;
}

/**
 * What a delivery job returns when its attempt succeeded, kept with the completed job: the reconciler
 * records the outcome from it when the worker stopped before writing it.
 */
export interface DeliveredAttempt {
  responseStatus: number;
  durationMs: number;
}
