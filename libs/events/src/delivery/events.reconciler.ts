import { PeriodicJob } from '@app/core';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { DeliverEventJobData, DeliveredAttempt, deliveryJobId, WEBHOOKS_QUEUE } from '../events.queue';
import { EventsSettings } from '../events.settings';
import { AttemptKey, WebhookAttemptsRepository } from './webhook-attempts.repository';
import { WebhookJobsProducer } from './webhook-jobs.producer';

const BATCH = 500;

/** The error of a pending attempt whose job ended without its outcome reaching the database. */
export const JOB_ENDED_UNHEARD = {
  failed: 'the delivery job failed for good',
  completed: 'nothing was sent',
};

/**
 * Repairs what the queue alone cannot, every `EVENTS_RECONCILE_INTERVAL_MS` (a periodic job: one run per tick
 * across the workers; a run that overlaps another's is harmless, as a job id names its delivery and every
 * outcome is written from `pending` only). It looks at
 * each attempt pending for over an interval: it enqueues the delivery again when Redis has no job for it
 * (never took it, or lost it), and settles the attempt when its job ended without the database hearing
 * of it (a successful job completes before its outcome is written). A job still waiting, delayed for a
 * retry or running is left alone: a worker killed mid-attempt leaves its job to run again.
 */
@Injectable()
export class EventsReconciler extends PeriodicJob {
  readonly name = 'events-reconcile';
  private readonly logger = new Logger(EventsReconciler.name);

  constructor(
    private readonly attempts: WebhookAttemptsRepository,
    private readonly producer: WebhookJobsProducer,
    @InjectQueue(WEBHOOKS_QUEUE) private readonly queue: Queue<DeliverEventJobData>,
    private readonly settings: EventsSettings,
  ) {
    super();
  }

  everyMs(): number {
    return this.settings.EVENTS_RECONCILE_INTERVAL_MS;
  }

  run(): Promise<void> {
    return this.sweep();
  }

  /** Attempts pending for over one interval (younger ones are still being enqueued or sent), in id order. */
  async sweep(): Promise<void> {
    let found: AttemptKey[];
    let afterId = 0;
    do {
      found = await this.attempts.findStale(this.settings.EVENTS_RECONCILE_INTERVAL_MS, afterId, BATCH);
      const lost: AttemptKey[] = [];
      const settled: Array<Promise<unknown>> = [];
      // The page's jobs are looked up together: one wait for Redis's answers, not one per attempt.
      const jobs = await Promise.all(
        found.map(async (attempt) => {
          const job = await this.queue.getJob(deliveryJobId(attempt));
          return { attempt, job, state: await job?.getState() };
        }),
      );
      for (const { attempt, job, state } of jobs) {
        if (!job || state === 'unknown') {
          // A job Redis kept only in part would block its id: removed, it can be added again.
          await job?.remove();
          lost.push(attempt);
        } else if (state === 'completed') settled.push(this.settleCompleted(attempt, job.returnvalue));
        else if (state === 'failed')
          settled.push(
            this.attempts.recordOutcome(attempt, { succeeded: false, error: JOB_ENDED_UNHEARD.failed }, false),
          );
      }
      await Promise.all(settled);
      if (lost.length > 0) {
        if (!(await this.producer.enqueue(lost))) return;
        this.logger.log(`enqueued ${lost.length} deliveries Redis had no job for`);
      }
      afterId = found.at(-1)?.attemptId ?? afterId;
    } while (found.length === BATCH && !this.stopped);
  }

  /** A completed job returned what the endpoint answered, or nothing when it found nothing to send. */
  private settleCompleted(attempt: AttemptKey, delivered: DeliveredAttempt | null): Promise<unknown> {
    const outcome = delivered
      ? { succeeded: true, responseStatus: delivered.responseStatus, durationMs: delivered.durationMs }
      : { succeeded: false, error: JOB_ENDED_UNHEARD.completed };
    return this.attempts.recordOutcome(attempt, outcome, false);
  }
}
