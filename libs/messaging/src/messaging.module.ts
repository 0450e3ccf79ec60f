import { createRequestPathRedis, Environment } from '@app/core';
import { BullModule } from '@nestjs/bullmq';
import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { MESSAGES_QUEUE, QUEUE_REDIS } from './messages.queue';
import { MessagesProducer } from './messages.producer';
import { MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';

const DAY_SECONDS = 24 * 60 * 60;

/**
 * The queue's connection: a request-path one, which fails at once while Redis is away instead of
 * holding the command (and the HTTP answer). Closed here: BullMQ leaves a connection it was given
 * open, and one it made itself reconnecting forever when Redis is away at shutdown.
 */
@Module({
  providers: [
    {
      provide: QUEUE_REDIS,
      inject: [Environment],
      useFactory: (env: Environment) => createRequestPathRedis(env, 'queue'),
    },
  ],
  exports: [QUEUE_REDIS],
})
class QueueRedisModule implements OnApplicationShutdown {
  constructor(@Inject(QUEUE_REDIS) private readonly redis: Redis) {}

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}

const MESSAGES_QUEUE_MODULE = BullModule.registerQueueAsync({
  name: MESSAGES_QUEUE,
  imports: [QueueRedisModule],
  inject: [Environment, QUEUE_REDIS],
  useFactory: (env: Environment, redis: Redis) => ({
    connection: redis,
    defaultJobOptions: {
      attempts: env.MESSAGES_MAX_ATTEMPTS,
      backoff: { type: 'exponential', delay: env.MESSAGES_BACKOFF_MS },
      // Finished jobs only serve inspection; the message row is the record.
      removeOnComplete: { age: DAY_SECONDS, count: 10_000 },
      removeOnFail: { age: 7 * DAY_SECONDS },
    },
  }),
});

/**
 * Messages without HTTP or processing: storage, lifecycle and the queue. Used by the messages app
 * (which enqueues on the request path) and by the worker (whose reconciler enqueues too).
 */
@Module({
  imports: [QueueRedisModule, MESSAGES_QUEUE_MODULE],
  providers: [MessagesRepository, MessagesService, MessagesProducer],
  exports: [MessagesService, MESSAGES_QUEUE_MODULE],
})
export class MessagingModule {}
