import { CoreSettings, EnqueueOutages } from '@app/core';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { EXPIRE_ORDER_JOB, ExpireOrderJobData, expiryJobId, ORDERS_QUEUE } from './orders.queue';

/**
 * Adds the delayed job that cancels a placed order when its hold runs out. Never fails: a hold whose
 * job could not be added (Redis away, or not answering within REDIS_COMMAND_TIMEOUT_MS) is found by
 * the worker's sweep.
 */
@Injectable()
export class OrderExpiryScheduler {
  private readonly outages: EnqueueOutages;

  constructor(
    @InjectQueue(ORDERS_QUEUE) private readonly queue: Queue<ExpireOrderJobData>,
    private readonly settings: CoreSettings,
  ) {
    this.outages = new EnqueueOutages(queue, OrderExpiryScheduler.name, 'hold expiries', 'the sweep');
  }

  async schedule(orderId: number, expiresAt: Date): Promise<void> {
    await this.outages.enqueue(
      () =>
        this.queue.add(
          EXPIRE_ORDER_JOB,
          { orderId },
          { jobId: expiryJobId(orderId), delay: Math.max(0, expiresAt.getTime() - Date.now()) },
        ),
      this.settings.REDIS_COMMAND_TIMEOUT_MS,
    );
  }
}
