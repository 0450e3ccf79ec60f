import { ADVISORY_LOCKS, Batcher, InsertBatcher, lockInIdOrder, Sql } from '@app/core';
import { Injectable } from '@nestjs/common';
import type { MessageDto } from './dto/message.dto';
import { newMessageId, MESSAGE_ID_FORMAT } from './message-id';
import { MessageStatus, TRANSITIONS } from './message-status';
import { MessageNotFoundError } from './messages.errors';
import { EnqueuedRecorder } from './enqueued-recorder';
import { MessagesProducer } from './messages.producer';

const COLUMNS = 'id, seq, message, status, created_at';
const MAX_ERROR_LENGTH = 1000;
/** Jobs added with one round trip to Redis. */
const ENQUEUE_CHUNK = 100;

interface MessageRow {
  id: string;
  seq: string;
  message: string;
  status: MessageStatus;
  created_at: Date;
}

function toMessage(row: MessageRow): MessageDto {
  return { id: row.id, message: row.message, status: row.status, createdAt: row.created_at.toISOString() };
}

export interface MessagePage {
  messages: MessageDto[];
  /** Position of the last message returned, when older ones follow. */
  lastSeq?: number;
}

interface NewMessage {
  id: string;
  accountId: number;
  text: string;
}

/**
 * Messages in PostgreSQL, the record that counts: a message is stored before it is enqueued, and
 * every status change is a guarded UPDATE (see TRANSITIONS), so it happens once per message.
 */
@Injectable()
export class MessagesService {
  /**
   * Messages accepted close together are stored with one INSERT and then enqueued with one round trip
   * to Redis. Each stage writes one batch at a time, so under load the batches grow, not the connections.
   */
  private readonly storeBatches = new InsertBatcher<NewMessage, MessageDto>((batch) => this.insert(batch));
  private readonly enqueueBatches = new Batcher<string>(async (ids) => {
    await this.enqueue(ids);
  }, 0);
  /** Delivered messages are marked `sent` together: one UPDATE per batch instead of one per job. */
  private readonly sentBatches = new Batcher<string>(async (ids) => {
    await this.transition('markSent', ids, `status = 'sent', sent_at = now()`);
  }, 0);

  constructor(
    private readonly sql: Sql,
    private readonly producer: MessagesProducer,
    private readonly enqueued: EnqueuedRecorder,
  ) {}

  /** Stores the message, then enqueues it; a failure to enqueue leaves it to the reconciler. */
  async accept(accountId: number, text: string): Promise<MessageDto> {
    const stored = await this.storeBatches.add({ id: newMessageId(), accountId, text });
    await this.enqueueBatches.add(stored.id);
    return stored;
  }

  /**
   * Adds the messages' delivery jobs and has `enqueued_at` recorded shortly after; false when Redis did
   * not take them all. Never throws: a message left without `enqueued_at` is enqueued again by the
   * reconciler, and a second enqueue is harmless.
   */
  async enqueue(ids: string[]): Promise<boolean> {
    // In bounded chunks, so a large batch does not outlast the Redis timeout on its own.
    for (let start = 0; start < ids.length; start += ENQUEUE_CHUNK) {
      const chunk = ids.slice(start, start + ENQUEUE_CHUNK);
      if (!(await this.producer.enqueue(chunk))) return false;
      for (const id of chunk) this.enqueued.record(id);
    }
    return true;
  }

  /** Writes the pending `enqueued_at` records now. */
  flushEnqueued(): Promise<void> {
    return this.enqueued.flush();
  }

  async get(accountId: number, id: string): Promise<MessageDto> {
    const rows = MESSAGE_ID_FORMAT.test(id)
      ? await this.sql.rows<MessageRow>(`SELECT ${COLUMNS} FROM messages WHERE id = $1 AND account_id = $2`, [
          id,
          accountId,
        ])
      : [];
    if (!rows[0]) throw new MessageNotFoundError(id);
    return toMessage(rows[0]);
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

  /** Claims the message for a delivery attempt; undefined when it is already sent or failed (or unknown). */
  async startSending(id: string): Promise<MessageDto | undefined> {
    const rows = await this.transition(
      'startSending',
      [id],
      `status = 'sending', sending_at = now(), attempts = attempts + 1`,
    );
    return rows[0] && toMessage(rows[0]);
  }

  /** Resolves once the message is recorded as sent, together with the others delivered meanwhile. */
  markSent(id: string): Promise<void> {
    return this.sentBatches.add(id);
  }

  /** Keeps the error of an attempt that will be retried. */
  async recordError(id: string, error: string): Promise<void> {
    await this.transition('recordError', [id], 'last_error = $3', [error.slice(0, MAX_ERROR_LENGTH)]);
  }

  async markFailed(id: string, error: string): Promise<void> {
    await this.transition('markFailed', [id], `status = 'failed', failed_at = now(), last_error = $3`, [
      error.slice(0, MAX_ERROR_LENGTH),
    ]);
  }

  /** Messages accepted at least `olderThanMs` ago that Redis never confirmed a job for. */
  async findUnenqueued(olderThanMs: number, limit: number): Promise<string[]> {
    return this.ids(
      `SELECT id FROM messages
        WHERE status = 'queued' AND enqueued_at IS NULL AND created_at < now() - $1 * interval '1 millisecond'
        ORDER BY created_at LIMIT $2`,
      [olderThanMs, limit],
    );
  }

  /** Messages whose current delivery attempt started at least `olderThanMs` ago. */
  async findSending(olderThanMs: number, limit: number): Promise<string[]> {
    return this.ids(
      `SELECT id FROM messages
        WHERE status = 'sending' AND sending_at < now() - $1 * interval '1 millisecond'
        ORDER BY sending_at LIMIT $2`,
      [olderThanMs, limit],
    );
  }

  /**
   * The stored messages, in the batch's order. Their `seq` is drawn under ADVISORY_LOCKS.messageSeqs,
   * so that a client that has listed past a message never finds an older one appear later: joining
   * the lock's CTE takes it before any row, and so any `seq`, is made.
   */
  private async insert(batch: NewMessage[]): Promise<MessageDto[]> {
    const rows = await this.sql.rows<MessageRow>(
      `WITH seqs_in_commit_order AS (SELECT pg_advisory_xact_lock($4))
       INSERT INTO messages (id, account_id, message)
       SELECT t.* FROM seqs_in_commit_order, unnest($1::text[], $2::bigint[], $3::text[]) AS t
       RETURNING ${COLUMNS}`,
      [
        batch.map((message) => message.id),
        batch.map((message) => message.accountId),
        batch.map((message) => message.text),
        ADVISORY_LOCKS.messageSeqs,
      ],
    );
    const stored = new Map(rows.map((row) => [row.id, toMessage(row)]));
    return batch.map((message) => stored.get(message.id)!);
  }

  private async ids(sql: string, params: unknown[]): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>(sql, params);
    return rows.map((row) => row.id);
  }

  private async transition(
    name: keyof typeof TRANSITIONS,
    ids: string[],
    assignments: string,
    extra: unknown[] = [],
  ): Promise<MessageRow[]> {
    // The status guard sits in the lock: a message another transition changed first no longer matches it.
    return this.sql.rows<MessageRow>(
      `${lockInIdOrder('messages', 'status = ANY($2)')}
       UPDATE messages SET ${assignments} WHERE id IN (SELECT id FROM locked) RETURNING ${COLUMNS}`,
      [ids, TRANSITIONS[name], ...extra],
    );
  }
}
