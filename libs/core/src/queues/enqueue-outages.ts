import { Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { withTimeout } from '../concurrency/with-timeout';

/**
 * The Redis-outage handling every producer on the request path shares. What a producer enqueues is
 * already stored in PostgreSQL, and a worker's sweep or reconciler enqueues what Redis did not take: so
 * an enqueue never throws and never waits on Redis past its bound, and an outage is logged once, when it
 * begins, not on every request while it lasts.
 */
export class EnqueueOutages {
  private readonly logger: Logger;
  private down = false;

  /**
   * @param producer names the log lines.
   * @param what what is enqueued, and what enqueues it instead: `'messages', 'the reconciler'`.
   */
  constructor(
    queue: Pick<Queue, 'on'>,
    producer: string,
    private readonly what: string,
    private readonly repairedBy: string,
  ) {
    this.logger = new Logger(producer);
    // The connection reports outages itself; without a listener BullMQ would print every one again.
    queue.on('error', () => undefined);
  }

  /**
   * Whether `adds` settled within `timeoutMs`. The queue's connection does not hold commands while Redis
   * is away; the bound covers a Redis that was never reached since start (the connection waits for it) or
   * that stopped answering.
   */
  async enqueue(adds: () => Promise<unknown>, timeoutMs: number): Promise<boolean> {
    try {
      await withTimeout(adds(), timeoutMs);
      this.down = false;
      return true;
    } catch (error) {
      if (!this.down)
        this.logger.warn(`cannot enqueue ${this.what}, ${this.repairedBy} will: ${(error as Error).message}`);
      this.down = true;
      return false;
    }
  }
}
