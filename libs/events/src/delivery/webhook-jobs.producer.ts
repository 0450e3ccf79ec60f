import { CoreSettings } from '@app/core';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
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
  private readonly logger = new Logger(WebhookJobsProducer.name);
  private redisDown = false;

  constructor(
    @InjectQueue(WEBHOOKS_QUEUE) private readonly queue: Queue<DeliverEventJobData>,
    private readonly env: CoreSettings,
  ) {
    // The connection reports outages itself; without a listener BullMQ would print every one again.
    queue.on('error', () => undefined);
  }

  /** Whether Redis took every job. */
  async enqueue(deliveries: DeliverEventJobData[]): Promise<boolean> {
    const chunks: DeliverEventJobData[][] = [];
    for (let start = 0; start < deliveries.length; start += ENQUEUE_CHUNK)
      chunks.push(deliveries.slice(start, start + ENQUEUE_CHUNK));
    // Every chunk is written before any answer is awaited: one wait for Redis, however many chunks.
    const results = await Promise.allSettled(
      chunks.map((chunk) =>
        this.withTimeout(
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
    );
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) {
      if (!this.redisDown)
        this.logger.warn(`cannot enqueue deliveries, the reconciler will: ${String(failure.reason)}`);
      this.redisDown = true;
      return false;
    }
    this.redisDown = false;
    return true;
  }

  /** The queue's connection does not hold commands while Redis is away; this bounds a Redis that stopped answering. */
  private withTimeout<T>(promise: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const ms = this.env.REDIS_COMMAND_TIMEOUT_MS * 4;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }
}
