import { double } from '../../../../test/support/doubles';
import type { Logger } from '@nestjs/common';
import { MAX_FAILURE_BACKOFF_MS, ContinuousPoller } from './continuous-poller';

/** Starts a task whose runs follow `outcomes` (true: succeeds), and records when each run started. */
function started(outcomes: boolean[], intervalMs: number) {
  const starts: number[] = [];
  const logger = double<Logger>({ warn: jest.fn() });
  const task = new ContinuousPoller('test', logger, async () => {
    starts.push(Date.now());
    if (!(outcomes.shift() ?? true)) throw new Error('connect ECONNREFUSED');
  });
  task.start(intervalMs);
  return { task, starts, logger };
}

/** The waits between consecutive runs. */
const gaps = (starts: number[]) => starts.slice(1).map((start, i) => start - starts[i]!);

describe('ContinuousPoller', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('runs at once and then one interval after each run', async () => {
    const { task, starts } = started([], 200);
    await jest.advanceTimersByTimeAsync(1000);
    await task.stop();
    expect(starts).toEqual([0, 200, 400, 600, 800, 1000]);
  });

  it('doubles the wait after each failure in a row, up to the cap, and returns to the interval on success', async () => {
    const failures = Array<boolean>(8).fill(false);
    const { task, starts, logger } = started([...failures, true, true], 200);
    await jest.advanceTimersByTimeAsync(30000);
    await task.stop();
    expect(gaps(starts).slice(0, 10)).toEqual([
      400,
      800,
      1600,
      3200,
      MAX_FAILURE_BACKOFF_MS,
      5000,
      5000,
      5000,
      200,
      200,
    ]);
    expect(logger.warn).toHaveBeenCalledTimes(8);
    expect(logger.warn).toHaveBeenLastCalledWith('test failed, retrying in 5000 ms: connect ECONNREFUSED');
  });

  it('keeps an interval longer than the cap after a failure', async () => {
    const { task, starts } = started([false, false], 60000);
    await jest.advanceTimersByTimeAsync(180000);
    await task.stop();
    expect(gaps(starts)).toEqual([60000, 60000, 60000]);
  });

  it('runs no more once stopped', async () => {
    const { task, starts } = started([], 200);
    await jest.advanceTimersByTimeAsync(0);
    await task.stop();
    await jest.advanceTimersByTimeAsync(1000);
    expect(starts).toEqual([0]);
  });
});
