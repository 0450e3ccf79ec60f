import type { Logger } from '@nestjs/common';

/**
 * Runs a task at once and then one interval after each run ends, so that runs never overlap. A failed
 * run is logged and the next one tries again; stopping waits for the running one.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private halted = false;

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
        .catch((error: Error) => this.logger.warn(`${this.name} failed, retrying next time: ${error.message}`))
        .finally(() => {
          if (!this.halted) this.schedule(intervalMs, intervalMs);
        });
    }, delayMs);
  }
}
