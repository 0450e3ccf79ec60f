import type { EventDto } from './dto/event.dto';

/** The BullMQ queue that carries webhook deliveries, and its job name: used nowhere else as literals. */
export const WEBHOOKS_QUEUE = 'webhooks';
export const DELIVER_EVENT_JOB = 'deliver';

/** One event to one endpoint. */
export interface DeliverEventJobData {
  eventId: string;
  endpointId: number;
  /**
   * Given by the dispatcher, which has both at hand: the delivery's first attempt and the event, so that
   * the job's first run reads neither. Absent when the reconciler enqueues the delivery again.
   */
  first?: FirstAttempt;
  /**
   * The number of an attempt the account asked for (a redelivery, a test event): its job makes that one
   * attempt only, and is named by it, beside any job the delivery had before.
   */
  manualAttempt?: number;
}

interface FirstAttempt {
  attemptId: number;
  event: EventDto;
}

/** A delivery: the event and the endpoint. */
export function deliveryKey(delivery: Pick<DeliverEventJobData, 'eventId' | 'endpointId'>): string {
  return `${delivery.eventId}.${delivery.endpointId}`;
}

/**
 * The job id names the delivery (and a manual attempt, its number), so enqueuing the same delivery again
 * adds no second job.
 */
export function deliveryJobId(delivery: DeliverEventJobData): string {
  return delivery.manualAttempt ? `${deliveryKey(delivery)}.${delivery.manualAttempt}` : deliveryKey(delivery);
}

/**
 * What a delivery job returns when its attempt succeeded, kept with the completed job: the reconciler
 * records the outcome from it when the worker stopped before writing it.
 */
export interface DeliveredAttempt {
  responseStatus: number;
  durationMs: number;
}
