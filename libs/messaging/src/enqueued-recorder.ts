import { Batcher, lockInIdOrder, Sql } from '@app/core';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';

/** How long accepted messages wait to share one UPDATE: short next to the reconciler's interval. */
const FLUSH_DELAY_MS = 10;
/** The worker marks the same messages `sent` in batches of its own: both lock in id order. */
const RECORD_ENQUEUED = `${lockInIdOrder('messages', 'enqueued_at IS NULL')}
  UPDATE messages SET enqueued_at = now() WHERE id IN (SELECT id FROM locked)`;

/**
 * Sets `enqueued_at` on messages whose job Redis confirmed, one UPDATE per batch rather than one per
 * accepted message. A batch that is lost (a crash, PostgreSQL away) costs only a second enqueue by
 * the reconciler, which adds no second job: the job id is the message id.
 */
@Injectable()
export class EnqueuedRecorder implements OnApplicationShutdown {
  private readonly logger = new Logger(EnqueuedRecorder.name);
  private readonly batches = new Batcher<string>((ids) => this.write(ids), FLUSH_DELAY_MS);

  constructor(private readonly sql: Sql) {}

  record(messageId: string): void {
    void this.batches.add(messageId);
  }

  /** Writes what is pending now. */
  flush(): Promise<void> {
    return this.batches.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** Never throws: a lost batch is the reconciler's to repair. */
  private async write(ids: string[]): Promise<void> {
    try {
      await this.sql.query(RECORD_ENQUEUED, [ids]);
    } catch (error) {
      this.logger.warn(`${ids.length} enqueued messages left to the reconciler: ${(error as Error).message}`);
    }
  }
}
