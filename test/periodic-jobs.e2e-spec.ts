import { CoreModule, PERIODIC_QUEUE, PeriodicJob, PeriodicJobsModule } from '@app/core';
import { Injectable } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { waitFor } from './support/processes';
import { testQueue } from './support/redis';

const EVERY_MS = 400;
const RUNS = 6;

/** Every run of the job, in any worker, with the time it started. */
const runs: number[] = [];

@Injectable()
class CountedJob extends PeriodicJob {
  readonly name = 'counted';

  everyMs(): number {
    return EVERY_MS;
  }

  async run(): Promise<void> {
    runs.push(Date.now());
  }
}

/** A worker's periodic jobs: what the worker app composes, with the counted job as its only one. */
async function startWorker(): Promise<TestingModule> {
  const worker = await Test.createTestingModule({
    imports: [CoreModule, PeriodicJobsModule],
    providers: [CountedJob],
  }).compile();
  return worker.init();
}

describe('periodic jobs in two workers', () => {
  const queue = testQueue(PERIODIC_QUEUE);
  let workers: TestingModule[] = [];

  beforeAll(async () => {
    await queue.obliterate({ force: true });
    workers = [await startWorker(), await startWorker()];
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('runs a job once per tick across the workers, from one scheduler', async () => {
    await waitFor(async () => runs.length >= RUNS, 30_000, `${RUNS} runs of the periodic job`);
    const ticks = (runs[RUNS - 1]! - runs[0]!) / EVERY_MS;

    // One run per tick can only be late, so it never makes more runs than ticks; a timer in each of the two
    // workers would make about two per tick.
    expect(RUNS - 1).toBeLessThanOrEqual(Math.ceil(ticks) + 1);
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((scheduler) => [scheduler.key, scheduler.every])).toEqual([['counted', EVERY_MS]]);
  });
});
