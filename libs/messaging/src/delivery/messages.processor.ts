import { configuredProcessor, isTemporaryFailure } from '@app/core';
import { OnWorkerEvent, WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Logger } from '@nestjs/common';
import { DelayedError, Job, WorkerOptions } from 'bullmq';
import { DeliveryError } from '../messages.errors';
import { messageJobs } from './delivery.metrics';
import { DeliverMessageJobData, MESSAGES_QUEUE } from '../messages.queue';
import { MessagingSettings } from '../messaging.settings';
import { DeliveryOutcome, MessageDelivery } from './message-delivery.service';

/** Runs delivery jobs; provided by `messagesProcessorProvider`, in the worker app only. */
export class MessagesProcessor extends WorkerHost implements BeforeApplicationShutdown {
  private readonly logger = new Logger(MessagesProcessor.name);
  private readonly retryDelayMs: number;

  constructor(
    private readonly delivery: MessageDelivery,
    settings: MessagingSettings,
  ) {
    super();
    this.retryDelayMs = settings.MESSAGES_BACKOFF_MS;
  }

  async process(job: Job<DeliverMessageJobData>, token?: string): Promise<DeliveryOutcome> {
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    try {
      return await this.delivery.attempt(job.data.messageId, lastAttempt);
    } catch (error) {
      // PostgreSQL being away (or rolling the work back to settle a conflict) is no failed delivery: try again
      // later without using up an attempt, however long it lasts, rather than leave the message stranded when
      // the attempts run out.
      if (token && !(error instanceof DeliveryError) && isTemporaryFailure(error)) {
        await job.moveToDelayed(Date.now() + this.retryDelayMs, token);
        throw new DelayedError();
      }
      throw error;
    }
  }

  @OnWorkerEvent('completed')
  onCompleted(): void {
    messageJobs.inc({ result: 'completed' });
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job<DeliverMessageJobData> | undefined, error: Error): void {
    messageJobs.inc({ result: 'failed' });
    this.logger.warn({ messageId: job?.data.messageId, attemptsMade: job?.attemptsMade }, error.message);
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn(`worker: ${error.message}`);
  }

  /** Takes no new jobs and lets running ones finish while PostgreSQL and Redis are still open. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.close();
  }
}

/** The delivery worker's options, from the settings. */
function deliveryWorkerOptions(settings: MessagingSettings): Partial<WorkerOptions> {
  return {
    concurrency: settings.WORKER_CONCURRENCY,
    lockDuration: settings.WORKER_LOCK_DURATION_MS,
    stalledInterval: settings.WORKER_LOCK_DURATION_MS,
    // A message whose delivery keeps killing workers ends like one that keeps failing.
    maxStalledCount: settings.MESSAGES_MAX_ATTEMPTS,
  };
}

export const messagesProcessorProvider = configuredProcessor({
  processor: MessagesProcessor,
  queue: MESSAGES_QUEUE,
  inject: [MessageDelivery, MessagingSettings],
  configure: (delivery: MessageDelivery, settings: MessagingSettings) => ({
    worker: deliveryWorkerOptions(settings),
    args: [delivery, settings] as [MessageDelivery, MessagingSettings],
  }),
});
