import { configuredProcessor, PeriodicJob } from '@app/core';
import { OnWorkerEvent, WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AccountsRepository } from '../accounts.repository';
import { AccountErasure } from './account-erasure';
import { ACCOUNT_ERASURE_QUEUE, AccountErasureProducer, EraseAccountJobData } from './account-erasure.queue';

/** Erasures that run at once in one worker: each holds one connection at a time, batch after batch. */
const CONCURRENCY = 2;
/**
 * How long a killed worker's erasure stays claimed before another worker (or the same one, started again)
 * takes it over: renewed every half of it while the erasure runs.
 */
const LOCK_MS = 10_000;
/** How often the reconciler looks for erasures without a job. */
const RECONCILE_EVERY_MS = 10_000;
const RECONCILE_BATCH = 100;

/** Runs the erasure of a deleted account; provided by `accountErasureProcessorProvider`, in the worker only. */
class AccountErasureProcessor extends WorkerHost implements BeforeApplicationShutdown {
  private readonly logger = new Logger(AccountErasureProcessor.name);
  private closing = false;

  constructor(private readonly erasure: AccountErasure) {
    super();
  }

  async process(job: Job<EraseAccountJobData>): Promise<void> {
    // A worker that closes mid-way leaves the rest to the reconciler's next job.
    await this.erasure.erase(job.data.accountId, () => this.closing);
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job<EraseAccountJobData> | undefined, error: Error): void {
    this.logger.warn({ accountId: job?.data.accountId, attemptsMade: job?.attemptsMade }, error.message);
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn(`worker: ${error.message}`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.worker.close();
  }
}

export const accountErasureProcessorProvider = configuredProcessor({
  processor: AccountErasureProcessor,
  queue: ACCOUNT_ERASURE_QUEUE,
  inject: [AccountErasure],
  configure: (erasure: AccountErasure) => ({
    worker: { concurrency: CONCURRENCY, lockDuration: LOCK_MS, stalledInterval: LOCK_MS / 2 },
    args: [erasure] as [AccountErasure],
  }),
});

/**
 * Adds the job of every deleted account whose erasure is unfinished and has none (added while Redis was
 * away, cut off by a worker's stop, or failed for good): a periodic job, and at each worker's start. Adding a
 * job that waits or runs adds none, so runs may overlap.
 */
@Injectable()
export class AccountErasureReconciler extends PeriodicJob {
  readonly name = 'account-erasure-reconcile';
  override readonly runsAtStart = true;

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly producer: AccountErasureProducer,
  ) {
    super();
  }

  everyMs(): number {
    return RECONCILE_EVERY_MS;
  }

  async run(): Promise<void> {
    const ids = await this.accounts.findErasing(RECONCILE_BATCH);
    if (ids.length > 0) await this.producer.enqueue(ids);
  }
}
