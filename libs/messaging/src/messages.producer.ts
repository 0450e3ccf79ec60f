import { CoreSettings, EnqueueOutages } from '@app/core';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { DELIVER_MESSAGE_JOB, DeliverMessageJobData, MESSAGES_QUEUE } from './messages.queue';

/**
 * Adds delivery jobs. Enqueueing never waits for Redis: the message is already stored, and a message
 * that could not be enqueued is picked up by the worker's reconciler once Redis is back.
 */
@Injectable()
export class MessagesProducer {
  private readonly outages: EnqueueOutages;

  constructor(
    @InjectQueue(MESSAGES_QUEUE) private readonly queue: Queue<DeliverMessageJobData>,
    private readonly core: CoreSettings,
  ) {
    this.outages = new EnqueueOutages(queue, MessagesProducer.name, 'messages', 'the reconciler');
  }

  /**
   * Whether the messages' jobs are in Redis now (or were already: a job id is its message id), added
   * together. One `add` each rather than `addBulk`: BullMQ builds the bulk on an ioredis pipeline it
   * adds methods to, and such a pipeline, with everything it holds, outlives young-generation
   * collections (docs/adr/0010-no-pipelines-on-the-request-path.md).
   */
  enqueue(messageIds: string[]): Promise<boolean> {
    return this.outages.enqueue(
      () =>
        Promise.all(
          messageIds.map((messageId) => this.queue.add(DELIVER_MESSAGE_JOB, { messageId }, { jobId: messageId })),
        ),
      this.core.REDIS_COMMAND_TIMEOUT_MS,
    );
  }
}
