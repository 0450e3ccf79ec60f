import { CoreModule, PERIODIC_QUEUE, PeriodicJob, PeriodicJobsModule, RESCHEDULE_EVERY_MS } from '@app/core';
import { Injectable } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { waitFor } from '../support/processes';
import { testQueue } from '../support/redis';

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

/** Every run of a job due at each worker's start, with an interval no test waits for. */
const startRuns: number[] = [];

@Injectable()
class AtStartJob extends PeriodicJob {
  readonly name = 'at-start';
  override readonly runsAtStart = true;

  everyMs(): number {
    return 3_600_000;
  }

  async run(): Promise<void> {
    startRuns.push(Date.now());
  }
}

/** A worker's periodic jobs: what the worker app composes, with the two jobs above as its only ones. */
async function startWorker(): Promise<TestingModule> {
  const worker = await Test.createTestingModule({
    imports: [CoreModule, PeriodicJobsModule],
    providers: [CountedJob, AtStartJob],
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
    expect(schedulers.map((scheduler) => [scheduler.key, scheduler.every]).sort()).toEqual([
      ['at-start', 3_600_000],
      ['counted', EVERY_MS],
    ]);
  });

  it('runs a job due at start once per starting worker, not again when the workers set their schedulers again', async () => {
    // The counted job's runs span two of the workers' reschedulings.
    const spanned = 2 * RESCHEDULE_EVERY_MS;
    await waitFor(async () => runs.at(-1)! - runs[0]! > spanned, 60_000, `runs over ${spanned} ms`);
    // One run added by each worker as it started, and at most one first tick of the hourly scheduler.
    expect(startRuns.length).toBeGreaterThanOrEqual(2);
    expect(startRuns.length).toBeLessThanOrEqual(3);
  });
});
