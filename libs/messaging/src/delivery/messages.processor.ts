import { Environment, isDependencyUnavailable, redisConnectionOptions } from '@app/core';
import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Logger } from '@nestjs/common';
import { DelayedError, Job, WorkerOptions } from 'bullmq';
import { DeliveryError } from '../messages.errors';
import { messageJobs } from './delivery.metrics';
import { DeliverMessageJobData, MESSAGES_QUEUE } from '../messages.queue';
import { DeliveryOutcome, MessageDelivery } from './message-delivery.service';

/**
 * @nestjs/bullmq takes worker options from the decorator, which cannot see the Environment. The
 * constructor fills this object in; Nest constructs every provider before it creates the worker.
 */
const workerOptions: Partial<WorkerOptions> = {};

/** Runs delivery jobs; imported by the worker app only. */
@Processor(MESSAGES_QUEUE, workerOptions)
export class MessagesProcessor extends WorkerHost implements BeforeApplicationShutdown {
  private readonly logger = new Logger(MessagesProcessor.name);
  private readonly retryDelayMs: number;

  constructor(
    private readonly delivery: MessageDelivery,
    env: Environment,
  ) {
    super();
    this.retryDelayMs = env.MESSAGES_BACKOFF_MS;
    Object.assign(workerOptions, {
      // Unlike the queue's connection, which fails fast for the request path, the worker's waits out
      // a Redis outage, and reconnects within 2 s of its end (BullMQ's default backs off to 20 s).
      connection: {
        ...redisConnectionOptions(env.REDIS_URL),
        retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
      },
      concurrency: env.WORKER_CONCURRENCY,
      lockDuration: env.WORKER_LOCK_DURATION_MS,
      stalledInterval: env.WORKER_LOCK_DURATION_MS,
      // A message whose delivery keeps killing workers ends like one that keeps failing.
      maxStalledCount: env.MESSAGES_MAX_ATTEMPTS,
    } satisfies Partial<WorkerOptions>);
  }

  async process(job: Job<DeliverMessageJobData>, token?: string): Promise<DeliveryOutcome> {
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    try {
      return await this.delivery.attempt(job.data.messageId, lastAttempt);
    } catch (error) {
      // PostgreSQL being away is no failed delivery: try again later without using up an attempt,
      // however long it lasts, rather than leave the message stranded when the attempts run out.
      if (token && !(error instanceof DeliveryError) && isDependencyUnavailable(error)) {
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
