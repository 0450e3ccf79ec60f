import { randomUUID } from 'node:crypto';
import { DelayedError, Job, Queue, Worker } from 'bullmq';
import { waitFor } from '../support/processes';
import { TEST_REDIS_URL } from '../support/test-env';

/**
 * What the webhook processor relies on to tell a job's first run (the only one that may use what the
 * dispatcher put in the job): BullMQ counts every run in attemptsStarted, while a run that ends delayed
 * without using up an attempt (PostgreSQL away) leaves attemptsMade as it was.
 */
describe('BullMQ’s run counters', () => {
  const name = `run-counters-${randomUUID()}`;
  const connection = { url: TEST_REDIS_URL };
  const queue = new Queue(name, { connection });
  let worker: Worker | undefined;
  afterAll(async () => {
    await worker?.close();
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('count a run delayed without using an attempt in attemptsStarted, not in attemptsMade', async () => {
    const runs: Array<{ started: number; made: number }> = [];
    worker = new Worker(
      name,
      async (job: Job, token?: string) => {
        runs.push({ started: job.attemptsStarted, made: job.attemptsMade });
        if (runs.length === 1) {
          await job.moveToDelayed(Date.now() + 10, token);
          throw new DelayedError();
        }
      },
      { connection },
    );
    await queue.add('run', {}, { attempts: 3 });
    await waitFor(async () => runs.length === 2, 10_000, 'the delayed job to run again');
    expect(runs).toEqual([
      { started: 1, made: 0 },
      { started: 2, made: 0 },
    ]);
  });
});
