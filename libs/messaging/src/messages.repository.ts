import { Batcher, exportedAs } from '@app/core';
import { GenerateSql, lockInIdOrder, sql, Sql, SqlFragment, WriteBatcher } from '@app/database';
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

/** Past every `seq`: where a walk newest first begins. */
const MAX_SEQ = '9223372036854775807';
const COLUMNS = sql`id, seq, message, status, created_at, attempts, sent_at, last_error`;
/** How long messages whose job Redis confirmed wait to share one UPDATE: short next to the reconciler's interval. */
const ENQUEUED_FLUSH_DELAY_MS = 10;

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
      sql`status = 'sending', sending_at = now(), attempts = attempts + 1`,
    );
    const byId = new Map(claimed.map((row) => [row.id, toMessage(row)]));
    return ids.map((id) => byId.get(id));
  }, 0);
  /** Delivered messages are marked `sent` together: one UPDATE per batch instead of one per job. */
  private readonly sentBatches = new Batcher<string>(async (ids) => {
    await this.settle('message.sent', () => this.transition('markSent', ids, sql`status = 'sent', sent_at = now()`));
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

  @GenerateSql({ params: [{ id: 'msg_1', accountId: 1, text: 'Hello' }] })
  insert(message: NewMessage): Promise<MessageDto> {
    return this.sql.batched(this.inserts, message);
  }

  @GenerateSql({ params: [1, 'msg_1'] })
  async findOne(accountId: number, id: string): Promise<MessageDto | undefined> {
    const rows = await this.sql.rows<MessageRow>(
      sql`SELECT ${COLUMNS} FROM messages WHERE id = ${id} AND account_id = ${accountId}`,
    );
    return rows[0] && toMessage(rows[0]);
  }

  /** The account's messages, newest first, keyset-paginated by `seq`. */
  @GenerateSql(
    { name: 'first page', params: [1, { limit: 20 }] },
    { name: 'with a status', params: [1, { limit: 20, status: 'sent' }] },
    { name: 'next page', params: [1, { limit: 20, beforeSeq: 100 }] },
    { name: 'next page with a status', params: [1, { limit: 20, status: 'sent', beforeSeq: 100 }] },
  )
  async list(
    accountId: number,
    options: { limit: number; status?: MessageStatus; beforeSeq?: number },
  ): Promise<MessagePage> {
    const conditions = [sql`account_id = ${accountId}`];
    if (options.status) conditions.push(sql`status = ${options.status}`);
    if (options.beforeSeq !== undefined) conditions.push(sql`seq < ${options.beforeSeq}`);
    // One row beyond the page tells whether another page follows.
    const rows = await this.sql.rows<MessageRow>(
      sql`SELECT ${COLUMNS} FROM messages WHERE ${sql.join(conditions, sql` AND `)} ORDER BY seq DESC LIMIT ${options.limit + 1}`,
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
  @GenerateSql({ params: ['msg_1'] })
  startSending(id: string): Promise<MessageDto | undefined> {
    return this.sql.batched(this.sendingBatches, id);
  }

  /** Resolves once the message is recorded as sent, together with the others delivered meanwhile. */
  @GenerateSql({ params: ['msg_1'] })
  markSent(id: string): Promise<void> {
    return this.sql.batched(this.sentBatches, id);
  }

  @GenerateSql({ params: ['msg_1', 'connection refused'] })
  async recordError(id: string, error: string): Promise<void> {
    await this.transition('recordError', [id], sql`last_error = ${error}`);
  }

  @GenerateSql({ params: ['msg_1', 'rejected'] })
  async markFailed(id: string, error: string): Promise<void> {
    await this.settle('message.failed', () =>
      this.transition('markFailed', [id], sql`status = 'failed', failed_at = now(), last_error = ${error}`),
    );
  }

  /** Has `enqueued_at` set shortly, together with the others recorded meanwhile; never fails. */
  @GenerateSql({ params: ['msg_1'] })
  recordEnqueued(id: string): void {
    void this.sql.batched(this.enqueuedBatches, id);
  }

  /** Writes the pending `enqueued_at` records now. */
  flushEnqueued(): Promise<void> {
    return this.enqueuedBatches.flush();
  }

  /** Messages accepted at least `olderThanMs` ago that Redis never confirmed a job for. */
  @GenerateSql({ params: [60_000, 1000] })
  findUnenqueued(olderThanMs: number, limit: number): Promise<string[]> {
    return this.ids(
      sql`SELECT id FROM messages
           WHERE status = 'queued' AND enqueued_at IS NULL AND created_at < now() - ${olderThanMs} * interval '1 millisecond'
           ORDER BY created_at LIMIT ${limit}`,
    );
  }

  /** Messages whose current delivery attempt started at least `olderThanMs` ago. */
  @GenerateSql({ params: [60_000, 1000] })
  findSending(olderThanMs: number, limit: number): Promise<string[]> {
    return this.ids(
      sql`SELECT id FROM messages
           WHERE status = 'sending' AND sending_at < now() - ${olderThanMs} * interval '1 millisecond'
           ORDER BY sending_at LIMIT ${limit}`,
    );
  }

  /**
   * The stored messages, in the batch's order. Their `seq` is drawn under MESSAGE_SEQS_LOCK: joining
   * the lock's CTE takes it before any row, and so any `seq`, is made.
   */
  private async insertBatch(batch: NewMessage[]): Promise<MessageDto[]> {
    const ids = batch.map((message) => message.id);
    const accountIds = batch.map((message) => message.accountId);
    const texts = batch.map((message) => message.text);
    const rows = await this.sql.rows<MessageRow>(
      sql`WITH seqs_in_commit_order AS (SELECT pg_advisory_xact_lock(${MESSAGE_SEQS_LOCK}))
          INSERT INTO messages (id, account_id, message)
          SELECT t.* FROM seqs_in_commit_order, unnest(${ids}::text[], ${accountIds}::bigint[], ${texts}::text[]) AS t
          RETURNING ${COLUMNS}`,
    );
    const stored = new Map(rows.map((row) => [row.id, toMessage(row)]));
    return batch.map((message) => stored.get(message.id)!);
  }

  /** Never throws: a lost batch is the reconciler's to repair. */
  private async writeEnqueued(ids: string[]): Promise<void> {
    try {
      // The worker claims the same messages and marks them `sent` in batches of its own: all lock in id order.
      await this.sql.query(
        sql`${lockInIdOrder('messages', ids, sql`enqueued_at IS NULL`)}
            UPDATE messages SET enqueued_at = now() WHERE id IN (SELECT id FROM locked)`,
      );
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

  private async ids(statement: SqlFragment): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>(statement);
    return rows.map((row) => row.id);
  }

  /** The account's messages a page at a time, newest first. */
  @GenerateSql({ params: [1, 500] })
  exported(accountId: number, pageSize: number): AsyncIterable<MessageDto> {
    const rows = this.sql.pages<MessageRow>(
      pageSize,
      (after) =>
        sql`SELECT ${COLUMNS} FROM messages WHERE account_id = ${accountId} AND seq < ${after?.seq ?? MAX_SEQ}::bigint
             ORDER BY seq DESC LIMIT ${pageSize}`,
    );
    return exportedAs(rows, toMessage);
  }

  /** Deletes up to `limit` messages of a deleted account; how many. A job of one finds nothing to send. */
  @GenerateSql({ params: [1, 200] })
  async deleteSome(accountId: number, limit: number): Promise<number> {
    const result = await this.sql.query(
      sql`DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE account_id = ${accountId} LIMIT ${limit})`,
    );
    return result.rowCount!;
  }

  /** A guarded UPDATE: it changes only the messages whose status the transition may leave. */
  private transition(name: keyof typeof TRANSITIONS, ids: string[], assignments: SqlFragment): Promise<MessageRow[]> {
    // The status guard sits in the lock: a message another transition changed first no longer matches it.
    return this.sql.rows<MessageRow>(
      sql`${lockInIdOrder('messages', ids, sql`status = ANY(${TRANSITIONS[name]})`)}
          UPDATE messages SET ${assignments} WHERE id IN (SELECT id FROM locked) RETURNING ${COLUMNS}, account_id`,
    );
  }
}
