import { BullModule, getQueueToken, WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import type { ConnectionOptions, Job, Queue } from 'bullmq';
import { WORKER_REDIS } from '../redis/redis.module';
import { configuredProcessor } from './configured-processor';
import { queuePrefix } from './queue-prefix';
import { PERIODIC_QUEUE, PeriodicJob } from './periodic-job';

/** Attempts of one tick's run: a run that keeps failing waits for the next tick. */
const ATTEMPTS = 3;
/**
 * Runs at once in one worker: one per job, so that a long run (a retention backlog) never holds up the
 * others. A job scheduler adds its next job when the current one starts, so a run longer than its interval
 * may overlap the next: every job is written to allow that, as runs in several workers always could.
 */
const CONCURRENCY = 8;

/** How often a worker sets its schedulers again, for a Redis that lost them. */
export const RESCHEDULE_EVERY_MS = 5000;

/**
 * Keeps a job scheduler for every `PeriodicJob` provided in the app and runs their jobs, one at a time in
 * each worker. Schedulers are kept by name, so every worker that starts sets the same ones: a changed
 * interval takes effect, and two workers still add one job per tick.
 */
class PeriodicJobsProcessor extends WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PeriodicJobsProcessor.name);
  private readonly jobs = new Map<string, PeriodicJob>();
  private rescheduling?: NodeJS.Timeout;
  /** Whether this worker has added the runs due at its start (once, not at every rescheduling). */
  private startRunsAdded = false;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly queue: Queue,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    for (const { instance } of this.discovery.getProviders()) {
      if (instance instanceof PeriodicJob) this.jobs.set(instance.name, instance);
    }
    // Not awaited: while Redis is away the worker runs on, and the schedulers are set once it is back.
    const schedule = () =>
      void this.schedule().catch((error: Error) => this.logger.warn(`periodic jobs not scheduled: ${error.message}`));
    schedule();
    // A Redis that comes back without its data (restarted without persistence) has lost the schedulers: set
    // them again now and then (upserting keeps one scheduler per name, so this costs a few commands).
    this.rescheduling = setInterval(schedule, RESCHEDULE_EVERY_MS).unref();
  }

  async process(job: Job): Promise<void> {
    const periodic = this.jobs.get(job.name);
    // A job of a scheduler this version no longer has: its scheduler is removed when a worker of the new version starts.
    if (periodic) await periodic.run();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.rescheduling);
    for (const job of this.jobs.values()) job.stopped = true;
    await this.worker.close();
  }

  private async schedule(): Promise<void> {
    if (!this.startRunsAdded) {
      for (const job of this.jobs.values()) {
        if (job.runsAtStart)
          await this.queue.add(job.name, {}, { removeOnComplete: true, removeOnFail: { count: 100 } });
      }
      this.startRunsAdded = true;
    }
    for (const job of this.jobs.values()) {
      await this.queue.upsertJobScheduler(
        job.name,
        { every: job.everyMs() },
        {
          name: job.name,
          opts: {
            attempts: ATTEMPTS,
            backoff: { type: 'exponential', delay: Math.min(job.everyMs(), 1000) },
            removeOnComplete: { count: 100 },
            removeOnFail: { count: 100 },
          },
        },
      );
    }
    for (const scheduler of await this.queue.getJobSchedulers()) {
      if (scheduler.key && !this.jobs.has(scheduler.key)) await this.queue.removeJobScheduler(scheduler.key);
    }
  }
}

const PERIODIC_QUEUE_REGISTRATION = BullModule.registerQueueAsync({
  name: PERIODIC_QUEUE,
  inject: [WORKER_REDIS],
  useFactory: (connection: ConnectionOptions) => ({ connection, prefix: queuePrefix(PERIODIC_QUEUE) }),
});

/** The periodic queue alone: for the queue dashboard, which shows its jobs without running them. */
@Module({ imports: [PERIODIC_QUEUE_REGISTRATION], exports: [PERIODIC_QUEUE_REGISTRATION] })
export class PeriodicQueueModule {}

/** The worker's periodic jobs: import it once in the worker app, beside the modules that provide the jobs. */
@Module({
  imports: [DiscoveryModule, PeriodicQueueModule],
  providers: [
    configuredProcessor({
      processor: PeriodicJobsProcessor,
      queue: PERIODIC_QUEUE,
      inject: [DiscoveryService, getQueueToken(PERIODIC_QUEUE)],
      configure: (discovery: DiscoveryService, queue: Queue) => ({
        worker: { concurrency: CONCURRENCY },
        args: [discovery, queue] as [DiscoveryService, Queue],
      }),
    }),
  ],
})
export class PeriodicJobsModule {}
