import { configuredProcessor } from '@app/core';
import { OnWorkerEvent, WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Logger } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { ExpireOrderJobData, ORDERS_QUEUE } from '../orders.queue';
import { OrdersService } from '../orders.service';

/** Expiries are a few short statements each: this many run at once per worker. */
const CONCURRENCY = 10;

/** Cancels a placed order when its hold runs out; provided by `orderExpiryProcessorProvider`, in the worker only. */
class OrderExpiryProcessor extends WorkerHost implements BeforeApplicationShutdown {
  private readonly logger = new Logger(OrderExpiryProcessor.name);

  constructor(private readonly orders: OrdersService) {
    super();
  }

  async process(job: Job<ExpireOrderJobData>, token?: string): Promise<void> {
    const notYet = await this.orders.expire(job.data.orderId);
    // The job ran before the database's clock reached the hold's end: run it again then.
    if (notYet && token) {
      await job.moveToDelayed(notYet.getTime(), token);
      throw new DelayedError();
    }
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job<ExpireOrderJobData> | undefined, error: Error): void {
    this.logger.warn({ orderId: job?.data.orderId, attemptsMade: job?.attemptsMade }, error.message);
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

export const orderExpiryProcessorProvider = configuredProcessor({
  processor: OrderExpiryProcessor,
  queue: ORDERS_QUEUE,
  inject: [OrdersService],
  configure: (orders: OrdersService) => ({
    worker: { concurrency: CONCURRENCY },
    args: [orders] as [OrdersService],
  }),
});
