import { CoreSettings, EnqueueOutages, queuePrefix, type RedisClient, RequestPathRedisModule } from '@app/core';
import { BullModule, InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';

/** The BullMQ queue of the accounts' erasures, and its job name: used nowhere else as literals. */
export const ACCOUNT_ERASURE_QUEUE = 'account-erasure';
const ERASE_ACCOUNT_JOB = 'erase';
const ERASURE_QUEUE_REDIS = Symbol('ERASURE_QUEUE_REDIS');

export interface EraseAccountJobData {
  accountId: number;
}

export const ERASURE_QUEUE_REDIS_MODULE = RequestPathRedisModule.provide(ERASURE_QUEUE_REDIS, 'account-erasure queue');

/**
 * Finished and failed jobs are removed: the account's row is the record, and a job id left behind would keep
 * the reconciler from adding the erasure again.
 */
export const ACCOUNT_ERASURE_QUEUE_MODULE = BullModule.registerQueueAsync({
  name: ACCOUNT_ERASURE_QUEUE,
  imports: [ERASURE_QUEUE_REDIS_MODULE],
  inject: [ERASURE_QUEUE_REDIS],
  useFactory: (redis: RedisClient) => ({
    connection: redis,
    prefix: queuePrefix(ACCOUNT_ERASURE_QUEUE),
    defaultJobOptions: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: true,
      removeOnFail: true,
    },
  }),
});

/**
 * Adds the job that erases a deleted account. Never fails: an erasure whose job could not be added (Redis
 * away) is added by the worker's reconciler. One job per account: adding it again while it waits or runs
 * adds none.
 */
@Injectable()
export class AccountErasureProducer {
  private readonly outages: EnqueueOutages;

  constructor(
    @InjectQueue(ACCOUNT_ERASURE_QUEUE) private readonly queue: Queue<EraseAccountJobData>,
    private readonly settings: CoreSettings,
  ) {
    this.outages = new EnqueueOutages(queue, AccountErasureProducer.name, 'account erasures', 'the reconciler');
  }

  async enqueue(accountIds: readonly number[]): Promise<void> {
    await this.outages.enqueue(
      () =>
        this.queue.addBulk(
          accountIds.map((accountId) => ({
            name: ERASE_ACCOUNT_JOB,
            data: { accountId },
            opts: { jobId: `erase-${accountId}` },
          })),
        ),
      this.settings.REDIS_COMMAND_TIMEOUT_MS,
    );
  }
}
