import { CoreSettings, withTimeout } from '@app/core';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { DELIVER_MESSAGE_JOB, DeliverMessageJobData, MESSAGES_QUEUE } from './messages.queue';

/**
 * Adds delivery jobs. Enqueueing never waits for Redis: the message is already stored, and a message
 * that could not be enqueued is picked up by the worker's reconciler once Redis is back.
 */
@Injectable()
export class MessagesProducer {
  private readonly logger = new Logger(MessagesProducer.name);
  private redisDown = false;

  constructor(
    @InjectQueue(MESSAGES_QUEUE) private readonly queue: Queue<DeliverMessageJobData>,
    private readonly core: CoreSettings,
  ) {
    // The connection reports outages itself; without a listener BullMQ would print every one again.
    queue.on('error', () => undefined);
  }

  /**
   * Whether the messages' jobs are in Redis now (or were already: a job id is its message id), added
   * together. One `add` each rather than `addBulk`: BullMQ builds the bulk on an ioredis pipeline it
   * adds methods to, and such a pipeline, with everything it holds, outlives young-generation
   * collections (docs/adr/0010-no-pipelines-on-the-request-path.md).
   */
  async enqueue(messageIds: string[]): Promise<boolean> {
    try {
      // The queue's connection does not hold commands while Redis is away; the bound covers a Redis
      // that was never reached since start (the connection waits for it) or that stopped answering.
      await withTimeout(
        Promise.all(
          messageIds.map((messageId) => this.queue.add(DELIVER_MESSAGE_JOB, { messageId }, { jobId: messageId })),
        ),
        this.core.REDIS_COMMAND_TIMEOUT_MS,
      );
      this.redisDown = false;
      return true;
    } catch (error) {
      if (!this.redisDown)
        this.logger.warn(`cannot enqueue messages, the reconciler will: ${(error as Error).message}`);
      this.redisDown = true;
      return false;
    }
  }
}
