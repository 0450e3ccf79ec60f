import { Batcher, WriteBatcher, lockInIdOrder, Sql } from '@app/database';
import { EventsRecorder, EventType } from '@app/events';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { MessageDto } from './dto/message.dto';
import { MessageStatus, TRANSITIONS } from './message-status';

/**
 * Advisory lock held by each message INSERT around its `seq`: in every process, the seqs then become
 * visible in the order they were drawn, so a client that has listed past a message never finds an
 * older one appear later. (Keys are 7_310_442_0NN; database and pets hold the others.)
 */
export const MESSAGE_SEQS_LOCK = 7_310_442_003;

const COLUMNS = 'id, seq, message, status, created_at, attempts, sent_at, last_error';
/** How long messages whose job Redis confirmed wait to share one UPDATE: short next to the reconciler's interval. */
const ENQUEUED_FLUSH_DELAY_MS = 10;
/** The worker claims the same messages and marks them `sent` in batches of its own: all lock in id order. */
const RECORD_ENQUEUED = `${lockInIdOrder('messages', 'enqueued_at IS NULL')}
  UPDATE messages SET enqueued_at = now() WHERE id IN (SELECT id FROM locked)`;

interface MessageRow {
  id: string;
  /** Returned by transitions only: whom their events go to. */
  account_id?: string;
  seq: string;
  message: string;
  status: MessageStatus;
  created_at: Date;
  attempts: number;
  sent_at: Date | null;
  last_error: string | null;
}

function toMessage(row: MessageRow): MessageDto {
  return {
    id: row.id,
    message: row.message,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    attempts: row.attempts,
    sentAt: row.sent_at?.toISOString() ?? null,
    lastError: row.last_error,
  };
}

export interface MessagePage {
  messages: MessageDto[];
  /** Position of the last message returned, when older ones follow. */
  lastSeq?: number;
}

export interface NewMessage {
  id: string;
  accountId: number;
  text: string;
}

/**
 * Messages in PostgreSQL. Every status change is a guarded UPDATE from the statuses TRANSITIONS allows,
 * so it happens once per message however often a job runs.
 */
@Injectable()
export class MessagesRepository implements OnApplicationShutdown {
  private readonly logger = new Logger(MessagesRepository.name);
  /**
   * Messages accepted close together are stored with one INSERT. Each batcher writes one batch at a
   * time, so under load the batches grow, not the connections.
   */
  private readonly inserts = new WriteBatcher<NewMessage, MessageDto>((batch) => this.insertBatch(batch));
  /**
   * Jobs that start close together claim their messages together: one UPDATE per batch instead of one per
   * job, each job getting its own message, or none when it may not be sent.
   */
  private readonly sendingBatches = new Batcher<string, MessageDto | undefined>(async (ids) => {
    const claimed = await this.transition(
      'startSending',
      ids,
      `status = 'sending', sending_at = now(), attempts = attempts + 1`,
    );
    const byId = new Map(claimed.map((row) => [row.id, toMessage(row)]));
    return ids.map((id) => byId.get(id));
  }, 0);
  /** Delivered messages are marked `sent` together: one UPDATE per batch instead of one per job. */
  private readonly sentBatches = new Batcher<string>(async (ids) => {
    await this.settle('message.sent', () => this.transition('markSent', ids, `status = 'sent', sent_at = now()`));
  }, 0);
  /**
   * `enqueued_at`, one UPDATE per batch rather than one per accepted message. A batch that is lost (a
   * crash, PostgreSQL away) costs only a second enqueue by the reconciler, which adds no second job.
   */
  private readonly enqueuedBatches = new Batcher<string>((ids) => this.writeEnqueued(ids), ENQUEUED_FLUSH_DELAY_MS);

  constructor(
    private readonly sql: Sql,
    private readonly events: EventsRecorder,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.flushEnqueued();
  }

  insert(message: NewMessage): Promise<MessageDto> {
    return this.sql.batched(this.inserts, message);
  }

  async findOne(accountId: number, id: string): Promise<MessageDto | undefined> {
    const rows = await this.sql.rows<MessageRow>(`SELECT ${COLUMNS} FROM messages WHERE id = $1 AND account_id = $2`, [
      id,
      accountId,
    ]);
    return rows[0] && toMessage(rows[0]);
  }

  /** The account's messages, newest first, keyset-paginated by `seq`. */
  async list(
    accountId: number,
    options: { limit: number; status?: MessageStatus; beforeSeq?: number },
  ): Promise<MessagePage> {
    const conditions = ['account_id = $1'];
    const params: unknown[] = [accountId];
    if (options.status) conditions.push(`status = $${params.push(options.status)}`);
    if (options.beforeSeq !== undefined) conditions.push(`seq < $${params.push(options.beforeSeq)}`);
    // One row beyond the page tells whether another page follows.
    const rows = await this.sql.rows<MessageRow>(
      `SELECT ${COLUMNS} FROM messages WHERE ${conditions.join(' AND ')} ORDER BY seq DESC LIMIT $${params.push(options.limit + 1)}`,
      params,
    );
    const page = rows.slice(0, options.limit);
    return {
      messages: page.map(toMessage),
      lastSeq: rows.length > options.limit ? Number(page[page.length - 1]!.seq) : undefined,
    };
  }

  /**
   * The message, now `sending`, together with the others claimed meanwhile; undefined when it is already
   * sent or failed (or unknown).
   */
  startSending(id: string): Promise<MessageDto | undefined> {
    return this.sql.batched(this.sendingBatches, id);
  }

  /** Resolves once the message is recorded as sent, together with the others delivered meanwhile. */
  markSent(id: string): Promise<void> {
    return this.sql.batched(this.sentBatches, id);
  }

  async recordError(id: string, error: string): Promise<void> {
    await this.transition('recordError', [id], 'last_error = $3', [error]);
  }

  async markFailed(id: string, error: string): Promise<void> {
    await this.settle('message.failed', () =>
      this.transition('markFailed', [id], `status = 'failed', failed_at = now(), last_error = $3`, [error]),
    );
  }

  /** Has `enqueued_at` set shortly, together with the others recorded meanwhile; never fails. */
  recordEnqueued(id: string): void {
    void this.sql.batched(this.enqueuedBatches, id);
  }

  /** Writes the pending `enqueued_at` records now. */
  flushEnqueued(): Promise<void> {
    return this.enqueuedBatches.flush();
  }

  /** Messages accepted at least `olderThanMs` ago that Redis never confirmed a job for. */
  findUnenqueued(olderThanMs: number, limit: number): Promise<string[]> {
    return this.ids(
      `SELECT id FROM messages
        WHERE status = 'queued' AND enqueued_at IS NULL AND created_at < now() - $1 * interval '1 millisecond'
        ORDER BY created_at LIMIT $2`,
      [olderThanMs, limit],
    );
  }

  /** Messages whose current delivery attempt started at least `olderThanMs` ago. */
  findSending(olderThanMs: number, limit: number): Promise<string[]> {
    return this.ids(
      `SELECT id FROM messages
        WHERE status = 'sending' AND sending_at < now() - $1 * interval '1 millisecond'
        ORDER BY sending_at LIMIT $2`,
      [olderThanMs, limit],
    );
  }

  /**
   * The stored messages, in the batch's order. Their `seq` is drawn under MESSAGE_SEQS_LOCK: joining
   * the lock's CTE takes it before any row, and so any `seq`, is made.
   */
  private async insertBatch(batch: NewMessage[]): Promise<MessageDto[]> {
    const rows = await this.sql.rows<MessageRow>(
      `WITH seqs_in_commit_order AS (SELECT pg_advisory_xact_lock($4))
       INSERT INTO messages (id, account_id, message)
       SELECT t.* FROM seqs_in_commit_order, unnest($1::text[], $2::bigint[], $3::text[]) AS t
       RETURNING ${COLUMNS}`,
      [
        batch.map((message) => message.id),
        batch.map((message) => message.accountId),
        batch.map((message) => message.text),
        MESSAGE_SEQS_LOCK,
      ],
    );
    const stored = new Map(rows.map((row) => [row.id, toMessage(row)]));
    return batch.map((message) => stored.get(message.id)!);
  }

  /** Never throws: a lost batch is the reconciler's to repair. */
  private async writeEnqueued(ids: string[]): Promise<void> {
    try {
      await this.sql.query(RECORD_ENQUEUED, [ids]);
    } catch (error) {
      this.logger.warn(`${ids.length} enqueued messages left to the reconciler: ${(error as Error).message}`);
    }
  }

  /** A final transition and its events to the messages' senders, in one transaction. */
  private settle(type: EventType, transition: () => Promise<MessageRow[]>): Promise<void> {
    return this.sql.transaction(async () => {
      const settled = await transition();
      await this.events.recordAll(
        settled.map((row) => ({ recipientAccountId: Number(row.account_id), type, object: toMessage(row) })),
      );
    });
  }

  private async ids(sql: string, params: unknown[]): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>(sql, params);
    return rows.map((row) => row.id);
  }

  /** A guarded UPDATE: it changes only the messages whose status the transition may leave. */
  private transition(
    name: keyof typeof TRANSITIONS,
    ids: string[],
    assignments: string,
    extra: unknown[] = [],
  ): Promise<MessageRow[]> {
    // The status guard sits in the lock: a message another transition changed first no longer matches it.
    return this.sql.rows<MessageRow>(
      `${lockInIdOrder('messages', 'status = ANY($2)')}
       UPDATE messages SET ${assignments} WHERE id IN (SELECT id FROM locked) RETURNING ${COLUMNS}, account_id`,
      [ids, TRANSITIONS[name], ...extra],
    );
  }
}
