import { PeriodicJob } from '@app/core';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { DeliverMessageJobData, MESSAGES_QUEUE } from '../messages.queue';
import { MessagesService } from '../messages.service';
import { MessagingSettings } from '../messaging.settings';

const BATCH = 500;

/**
 * Repairs what the queue alone cannot, every `MESSAGES_RECONCILE_INTERVAL_MS`: enqueues messages
 * that were stored while Redis was away, and settles deliveries whose job is gone or failed without
 * the database hearing of it. A periodic job: one run per tick across the workers; a run that overlaps
 * another's is harmless, since enqueueing a message twice adds no second job and every status change is guarded.
 */
@Injectable()
export class MessagesReconciler extends PeriodicJob {
  readonly name = 'messages-reconcile';
  private readonly logger = new Logger(MessagesReconciler.name);

  constructor(
    private readonly messages: MessagesService,
    @InjectQueue(MESSAGES_QUEUE) private readonly queue: Queue<DeliverMessageJobData>,
    private readonly settings: MessagingSettings,
  ) {
    super();
  }

  everyMs(): number {
    return this.settings.MESSAGES_RECONCILE_INTERVAL_MS;
  }

  run(): Promise<void> {
    return this.sweep();
  }

  async sweep(): Promise<void> {
    await this.enqueueStored();
    await this.settleStopped();
  }

  /** Messages older than one interval that no job was confirmed for (younger ones are still being enqueued). */
  private async enqueueStored(): Promise<void> {
    let ids: string[];
    do {
      ids = await this.messages.findUnenqueued(this.settings.MESSAGES_RECONCILE_INTERVAL_MS, BATCH);
      if (ids.length > 0 && !(await this.messages.enqueue(ids))) return;
      // Recorded before the next query, which would otherwise find the same messages again.
      await this.messages.flushEnqueued();
      if (ids.length > 0) this.logger.log(`enqueued ${ids.length} stored messages`);
    } while (ids.length === BATCH && !this.stopped);
  }

  /**
   * `sending` messages whose job no longer runs: removed (enqueued again) or failed for good, e.g.
   * after stalling more often than allowed, or when the database was away at its last attempt.
   */
  private async settleStopped(): Promise<void> {
    const jobless: string[] = [];
    for (const id of await this.messages.findSending(this.settings.MESSAGES_RECONCILE_INTERVAL_MS, BATCH)) {
      const job = await this.queue.getJob(id);
      if (!job) jobless.push(id);
      else if (await job.isFailed()) await this.messages.markFailed(id, job.failedReason || 'delivery failed');
    }
    if (jobless.length > 0) await this.messages.enqueue(jobless);
  }
}
