import { PeriodicTask } from '@app/core';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { DeliverEventJobData, DeliveredAttempt, deliveryJobId, WEBHOOKS_QUEUE } from '../events.queue';
import { EventsSettings } from '../events.settings';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookJobsProducer } from './webhook-jobs.producer';

const BATCH = 500;

/**
 * Repairs what the queue alone cannot, every `EVENTS_RECONCILE_INTERVAL_MS` in every worker (they may
 * overlap: a job id names its delivery, and every settlement is guarded): enqueues deliveries whose job
 * Redis never confirmed, enqueues again those whose job Redis lost, settles those whose job ended
 * without the database hearing of it (a job completes before its outcome is written), and closes
 * attempts a stopped worker left open.
 */
@Injectable()
export class EventsReconciler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EventsReconciler.name);
  private readonly task = new PeriodicTask('reconcile', this.logger, () => this.sweep());

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly producer: WebhookJobsProducer,
    @InjectQueue(WEBHOOKS_QUEUE) private readonly queue: Queue<DeliverEventJobData>,
    private readonly settings: EventsSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.settings.EVENTS_RECONCILE_INTERVAL_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  async sweep(): Promise<void> {
    const interval = this.settings.EVENTS_RECONCILE_INTERVAL_MS;
    await this.enqueueStored(interval);
    await this.settleStopped(interval);
    // An attempt lasts at most the timeout; one open well past it has lost its worker.
    const closed = await this.deliveries.closeInterrupted(this.settings.WEBHOOK_TIMEOUT_MS + interval);
    if (closed > 0) this.logger.log(`closed ${closed} interrupted attempts`);
  }

  /** Deliveries older than one interval that no job was confirmed for (younger ones are still being enqueued). */
  private async enqueueStored(interval: number): Promise<void> {
    let found: DeliverEventJobData[];
    do {
      found = await this.deliveries.findUnenqueued(interval, BATCH);
      if (found.length > 0 && !(await this.producer.enqueue(found))) return;
      // Recorded before the next query, which would otherwise find the same deliveries again.
      await this.deliveries.flushEnqueued();
      if (found.length > 0) this.logger.log(`enqueued ${found.length} stored deliveries`);
    } while (found.length === BATCH && !this.task.stopped);
  }

  /**
   * Pending deliveries whose job is gone (Redis lost it) or ended without the outcome reaching the
   * database: completed, or failed for good.
   */
  private async settleStopped(interval: number): Promise<void> {
    const lost: DeliverEventJobData[] = [];
    for (const delivery of await this.deliveries.findEnqueued(interval, BATCH)) {
      const job = await this.queue.getJob(deliveryJobId(delivery));
      if (!job) lost.push(delivery);
      else if (await job.isCompleted())
        await this.settleCompleted(delivery, job.returnvalue as DeliveredAttempt | null);
      else if (await job.isFailed()) await this.deliveries.abandon(delivery);
    }
    if (lost.length > 0 && (await this.producer.enqueue(lost)))
      this.logger.log(`enqueued ${lost.length} lost deliveries`);
  }

  /** A completed job returned the attempt that succeeded, or nothing when it found nothing to send. */
  private settleCompleted(delivery: DeliverEventJobData, delivered: DeliveredAttempt | null): Promise<void> {
    if (!delivered) return this.deliveries.abandon(delivery);
    const { attemptId, responseStatus, durationMs } = delivered;
    return this.deliveries.recordOutcome(delivery, attemptId, { succeeded: true, responseStatus, durationMs }, true);
  }
}
