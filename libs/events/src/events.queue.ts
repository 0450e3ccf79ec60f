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
}

export interface FirstAttempt {
  attemptId: number;
  event: EventDto;
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
