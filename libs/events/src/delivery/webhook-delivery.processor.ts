import { configuredProcessor, isTemporaryFailure } from '@app/core';
import { OnWorkerEvent, WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Logger } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError, WorkerOptions } from 'bullmq';
import { DeliverEventJobData, DeliveredAttempt, WEBHOOKS_QUEUE } from '../events.queue';
import { EventsSettings } from '../events.settings';
import { WebhookAttemptFailedError, WebhookDeliveryService } from './webhook-delivery.service';

/** Runs webhook delivery jobs; provided by `webhookDeliveryProcessorProvider`, in the worker app only. */
export class WebhookDeliveryProcessor extends WorkerHost implements BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveryProcessor.name);

  constructor(
    private readonly delivery: WebhookDeliveryService,
    private readonly retryDelayMs: number,
  ) {
    super();
  }

  async process(job: Job<DeliverEventJobData>, token?: string): Promise<DeliveredAttempt | undefined> {
    try {
      // Counted as the job becomes active, unlike attemptsMade, which neither a stalled run nor a delay adds to.
      return await this.delivery.attempt(job.data, job.attemptsStarted === 1);
    } catch (error) {
      // The last attempt has been recorded as failed: the queue must not try again.
      if (error instanceof WebhookAttemptFailedError && error.last) throw new UnrecoverableError(error.message);
      // PostgreSQL being away, or rolling the work back to settle a conflict, is no failed attempt: try again
      // later without using one up.
      if (token && !(error instanceof WebhookAttemptFailedError) && isTemporaryFailure(error)) {
        await job.moveToDelayed(Date.now() + this.retryDelayMs, token);
        throw new DelayedError();
      }
      throw error;
    }
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job<DeliverEventJobData> | undefined, error: Error): void {
    // Not the job's data: a first attempt's job carries the event, with what its resource holds.
    this.logger.debug(
      { eventId: job?.data.eventId, endpointId: job?.data.endpointId, attemptsMade: job?.attemptsMade },
      error.message,
    );
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn(`worker: ${error.message}`);
  }

  /**
   * Takes no new jobs, lets running ones finish and writes their outcomes while PostgreSQL and Redis are
   * still open.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.close();
    await this.delivery.flushOutcomes();
  }
}

/**
 * The delivery worker's options, from the settings. A job whose worker died is run again by another within
 * WEBHOOK_LOCK_DURATION_MS, as the webhooks guide says. BullMQ takes a job over at the first stalled check
 * that finds its lock expired and that a previous check (after the lock's last renewal) marked: with a lock
 * of half the setting, expired at most that long after the worker died, and a check every quarter, that is
 * within three quarters of it. A lock as long as the setting, checked as often, took up to three times it.
 */
export function webhookWorkerOptions(settings: EventsSettings): Partial<WorkerOptions> {
  return {
    concurrency: settings.WEBHOOK_WORKER_CONCURRENCY,
    lockDuration: settings.WEBHOOK_LOCK_DURATION_MS / 2,
    stalledInterval: settings.WEBHOOK_LOCK_DURATION_MS / 4,
    // A delivery whose attempts keep killing workers ends like one that keeps failing.
    maxStalledCount: settings.WEBHOOK_MAX_ATTEMPTS,
  };
}

export const webhookDeliveryProcessorProvider = configuredProcessor({
  processor: WebhookDeliveryProcessor,
  queue: WEBHOOKS_QUEUE,
  inject: [WebhookDeliveryService, EventsSettings],
  configure: (delivery: WebhookDeliveryService, settings: EventsSettings) => ({
    worker: webhookWorkerOptions(settings),
    args: [delivery, settings.WEBHOOK_BACKOFF_MS] as [WebhookDeliveryService, number],
  }),
});
