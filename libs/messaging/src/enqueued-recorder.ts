import { Sql } from '@app/core';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';

/** How long accepted messages wait to share one UPDATE: short next to the reconciler's interval. */
const FLUSH_DELAY_MS = 10;

/**
 * Sets `enqueued_at` on messages whose job Redis confirmed, one UPDATE per batch rather than one per
 * accepted message. A batch that is lost (a crash, PostgreSQL away) costs only a second enqueue by
 * the reconciler, which adds no second job: the job id is the message id.
 */
@Injectable()
export class EnqueuedRecorder implements OnApplicationShutdown {
  private readonly logger = new Logger(EnqueuedRecorder.name);
  private pending: string[] = [];
  private scheduled?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly sql: Sql) {}

  record(messageId: string): void {
    this.pending.push(messageId);
    this.scheduled ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
  }

  /** Writes what is pending. One write at a time: a slow database gets bigger batches, not more connections. */
  flush(): Promise<void> {
    clearTimeout(this.scheduled);
    this.scheduled = undefined;
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.pending.length === 0) return;
    const ids = this.pending;
    this.pending = [];
    try {
      await this.sql.query('UPDATE messages SET enqueued_at = now() WHERE id = ANY($1) AND enqueued_at IS NULL', [ids]);
    } catch (error) {
      this.logger.warn(`${ids.length} enqueued messages left to the reconciler: ${(error as Error).message}`);
    }
  }
}
