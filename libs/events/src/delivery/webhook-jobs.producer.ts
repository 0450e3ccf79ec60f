import { CoreSettings, EnqueueOutages } from '@app/core';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { DELIVER_EVENT_JOB, DeliverEventJobData, deliveryJobId, WEBHOOKS_QUEUE } from '../events.queue';

/** Jobs added with one write to Redis and one wait for its answers. */
const ENQUEUE_CHUNK = 100;

/**
 * Adds delivery jobs for deliveries already stored. Never throws: what Redis did not take, the reconciler
 * enqueues again, and a second job is never added for the same delivery while the first is kept (the
 * job id names it).
 */
@Injectable()
export class WebhookJobsProducer {
  private readonly outages: EnqueueOutages;

  constructor(
    @InjectQueue(WEBHOOKS_QUEUE) private readonly queue: Queue<DeliverEventJobData>,
    private readonly env: CoreSettings,
  ) {
    this.outages = new EnqueueOutages(queue, WebhookJobsProducer.name, 'deliveries', 'the reconciler');
  }

  /** Whether Redis took every job. */
  enqueue(deliveries: DeliverEventJobData[]): Promise<boolean> {
    const chunks: DeliverEventJobData[][] = [];
    for (let start = 0; start < deliveries.length; start += ENQUEUE_CHUNK)
      chunks.push(deliveries.slice(start, start + ENQUEUE_CHUNK));
    // Every chunk is written before any answer is awaited: one wait for Redis, however many chunks.
    return this.outages.enqueue(
      () =>
        Promise.all(
          chunks.map((chunk) =>
            this.queue.addBulk(
              chunk.map(({ eventId, endpointId, first, manualAttempt }) => ({
                name: DELIVER_EVENT_JOB,
                // The delivery's key and, from the dispatcher, its first attempt: callers may pass more.
                data: { eventId, endpointId, ...(first && { first }), ...(manualAttempt && { manualAttempt }) },
                // A manual attempt is made once: its failure is not retried.
                opts: {
                  jobId: deliveryJobId({ eventId, endpointId, manualAttempt }),
                  ...(manualAttempt && { attempts: 1 }),
                },
              })),
            ),
          ),
        ),
      // A bulk of up to ENQUEUE_CHUNK jobs is given longer than one command.
      this.env.REDIS_COMMAND_TIMEOUT_MS * 4,
    );
  }
}
