import { Logger } from '@nestjs/common';
import { Client, type ClientConfig } from 'pg';

/** How long PostgreSQL runs one statement before cancelling it itself (`statement_timeout`). */
export const STATEMENT_TIMEOUT_MS = 15_000;
/** Past this, PostgreSQL would have answered, if only with its cancellation: it is not answering at all. */
const UNANSWERED_AFTER_MS = STATEMENT_TIMEOUT_MS + 5_000;
const SWEEP_INTERVAL_MS = 1_000;

export interface WatchedClientConfig extends ClientConfig {
  /** How long a statement may go unanswered before its connection is given up. */
  unansweredAfterMs?: number;
}

/**
 * A pg client whose statements cannot wait forever on a PostgreSQL that has stopped answering: frozen,
 * or cut off without the connection closing. A statement still unanswered `unansweredAfterMs` after it
 * was sent has its connection destroyed, which fails it with pg's `Connection terminated unexpectedly`
 * (answered 503) and makes the pool replace the connection. A PostgreSQL that does answer cancels a long
 * statement itself first (`statement_timeout`, in the pool's connection options).
 *
 * pg's own `query_timeout` does this with a timer and a callback wrapper per statement; under load, that
 * made V8 promote nearly every batch's rows and callbacks to the old generation (docs/adr/0008-statement-watchdog.md).
 * Here one sweep a second looks at every connection instead.
 */
export class WatchedClient extends Client {
  private static readonly logger = new Logger('PostgreSQL');
  private static readonly busy = new Set<WatchedClient>();
  private static sweeper?: NodeJS.Timeout;

  /** pg's own state, missing from its type definitions: false while a statement awaits its answer. */
  declare readonly readyForQuery: boolean;
  private readonly unansweredAfterMs: number;
  /** When the statement now running was sent; 0 before the first. */
  private sentAt = 0;

  constructor(config: WatchedClientConfig) {
    super(config);
    this.unansweredAfterMs = config.unansweredAfterMs ?? UNANSWERED_AFTER_MS;
    // pg sends a statement queued behind another as soon as PostgreSQL has answered that one.
    this.connection.on('readyForQuery', () => {
      this.sentAt = Date.now();
    });
    this.once('end', () => WatchedClient.forget(this));
  }

  // pg's overloads (callback, promise, submittable) all pass through untouched.
  override query(...args: unknown[]): never {
    // A client that is not ready queues the statement, whose clock starts when it is sent.
    if (this.readyForQuery) this.sentAt = Date.now();
    WatchedClient.watch(this);
    return Reflect.apply(super.query, this, args) as never;
  }

  private static watch(client: WatchedClient): void {
    this.busy.add(client);
    this.sweeper ??= setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref();
  }

  private static forget(client: WatchedClient): void {
    this.busy.delete(client);
    if (this.busy.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  private static sweep(): void {
    const now = Date.now();
    for (const client of this.busy) {
      if (client.readyForQuery) this.forget(client);
      else if (client.sentAt > 0 && now - client.sentAt > client.unansweredAfterMs) {
        this.logger.warn(`no answer to a statement for ${now - client.sentAt} ms: closing its connection`);
        this.forget(client);
        client.connection.stream.destroy();
      }
    }
  }
}
