import { Batcher } from '@app/core';
import { Injectable } from '@nestjs/common';
import type { MessageDto } from './dto/message.dto';
import { newMessageId, MESSAGE_ID_FORMAT } from './message-id';
import type { MessageStatus } from './message-status';
import { MessageNotFoundError } from './messages.errors';
import { MessagesProducer } from './messages.producer';
import { MessagePage, MessagesRepository } from './messages.repository';

const MAX_ERROR_LENGTH = 1000;
/** Jobs added with one round trip to Redis. */
const ENQUEUE_CHUNK = 100;

/**
 * Messages' lifecycle and their queue. PostgreSQL is the record that counts: a message is stored before
 * it is enqueued, and every status change is a guarded UPDATE (see TRANSITIONS), so it happens once per
 * message.
 */
@Injectable()
export class MessagesService {
  /**
   * Messages stored close together are enqueued with one round trip to Redis, one batch at a time, so
   * under load the batches grow, not the connections.
   */
  private readonly enqueueBatches = new Batcher<string>(async (ids) => {
    await this.enqueue(ids);
  }, 0);

  constructor(
    private readonly messages: MessagesRepository,
    private readonly producer: MessagesProducer,
  ) {}

  /** Stores the message, then enqueues it; a failure to enqueue leaves it to the reconciler. */
  async accept(accountId: number, text: string): Promise<MessageDto> {
    const stored = await this.messages.insert({ id: newMessageId(), accountId, text });
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
      for (const id of chunk) this.messages.recordEnqueued(id);
    }
    return true;
  }

  /** Writes the pending `enqueued_at` records now. */
  flushEnqueued(): Promise<void> {
    return this.messages.flushEnqueued();
  }

  async get(accountId: number, id: string): Promise<MessageDto> {
    const message = MESSAGE_ID_FORMAT.test(id) ? await this.messages.findOne(accountId, id) : undefined;
    if (!message) throw new MessageNotFoundError(id);
    return message;
  }

  /** The account's messages, newest first, keyset-paginated by `seq`. */
  list(
    accountId: number,
    options: { limit: number; status?: MessageStatus; beforeSeq?: number },
  ): Promise<MessagePage> {
    return this.messages.list(accountId, options);
  }

  /** Claims the message for a delivery attempt; undefined when it is already sent or failed (or unknown). */
  startSending(id: string): Promise<MessageDto | undefined> {
    return this.messages.startSending(id);
  }

  /** Resolves once the message is recorded as sent, together with the others delivered meanwhile. */
  markSent(id: string): Promise<void> {
    return this.messages.markSent(id);
  }

  /** Keeps the error of an attempt that will be retried. */
  recordError(id: string, error: string): Promise<void> {
    return this.messages.recordError(id, error.slice(0, MAX_ERROR_LENGTH));
  }

  markFailed(id: string, error: string): Promise<void> {
    return this.messages.markFailed(id, error.slice(0, MAX_ERROR_LENGTH));
  }

  /** Messages accepted at least `olderThanMs` ago that Redis never confirmed a job for. */
  findUnenqueued(olderThanMs: number, limit: number): Promise<string[]> {
    return this.messages.findUnenqueued(olderThanMs, limit);
  }

  /** Messages whose current delivery attempt started at least `olderThanMs` ago. */
  findSending(olderThanMs: number, limit: number): Promise<string[]> {
    return this.messages.findSending(olderThanMs, limit);
  }
}
