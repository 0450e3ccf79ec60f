import type { Logger } from '@nestjs/common';

/** The longest wait a run of failures stretches a short interval to. */
export const MAX_FAILURE_BACKOFF_MS = 5000;

/**
 * The loop of a continuous poller, a reader that a worker keeps polling every few hundred milliseconds (the
 * events dispatcher, the saved-search matcher): it runs in every worker, whose runs claim different rows, so
 * a tick costs no Redis round trip. Work done once per tick across the workers is a `PeriodicJob` instead.
 *
 * Runs a task at once and then one interval after each run ends, so that runs never overlap. A failed
 * run is logged and the next one tries again, after a wait that doubles with each failure in a row (up to
 * MAX_FAILURE_BACKOFF_MS, or the interval when that is longer): while PostgreSQL or Redis is away, a task
 * that runs several times a second does not keep the process busy failing, and the first success brings
 * the interval back. Stopping waits for the running one.
 */
export class ContinuousPoller {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private halted = false;
  private failures = 0;

  constructor(
    /** Names the task in the log line of a failed run. */
    private readonly name: string,
    private readonly logger: Logger,
    private readonly run: () => Promise<void>,
  ) {}

  /** Whether `stop()` was called: a long run checks it between batches to end early. */
  get stopped(): boolean {
    return this.halted;
  }

  start(intervalMs: number): void {
    this.schedule(0, intervalMs);
  }

  async stop(): Promise<void> {
    this.halted = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number, intervalMs: number): void {
    this.timer = setTimeout(() => {
      this.running = this.run()
        .then(
          () => {
            this.failures = 0;
          },
          (error: Error) => {
            this.failures++;
            this.logger.warn(`${this.name} failed, retrying in ${this.delayAfter(intervalMs)} ms: ${error.message}`);
          },
        )
        .finally(() => {
          if (!this.halted) this.schedule(this.delayAfter(intervalMs), intervalMs);
        });
    }, delayMs);
  }

  /** The wait before the next run: the interval, doubled for each failure in a row up to the cap. */
  private delayAfter(intervalMs: number): number {
    if (this.failures === 0) return intervalMs;
    const cap = Math.max(intervalMs, MAX_FAILURE_BACKOFF_MS);
    return Math.min(cap, intervalMs * 2 ** Math.min(this.failures, 30));
  }
}
