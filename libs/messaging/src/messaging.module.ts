import { EventsModule } from '@app/events';
import { queuePrefix, type RedisClient, RequestPathRedisModule, settingsModule } from '@app/core';
import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { MESSAGES_QUEUE, QUEUE_REDIS } from './messages.queue';
import { MessagesProducer } from './messages.producer';
import { MessagesService } from './messages.service';
import { MessagingPersonalDataModule } from './messaging-personal-data.part';
import { MessagingSettings } from './messaging.settings';

const DAY_SECONDS = 24 * 60 * 60;

const QUEUE_REDIS_MODULE = RequestPathRedisModule.provide(QUEUE_REDIS, 'queue');

const MESSAGES_QUEUE_MODULE = BullModule.registerQueueAsync({
  name: MESSAGES_QUEUE,
  imports: [QUEUE_REDIS_MODULE, settingsModule(MessagingSettings)],
  inject: [MessagingSettings, QUEUE_REDIS],
  useFactory: (settings: MessagingSettings, redis: RedisClient) => ({
    connection: redis,
    prefix: queuePrefix(MESSAGES_QUEUE),
    defaultJobOptions: {
      attempts: settings.MESSAGES_MAX_ATTEMPTS,
      backoff: { type: 'exponential', delay: settings.MESSAGES_BACKOFF_MS },
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
  imports: [
    QUEUE_REDIS_MODULE,
    MESSAGES_QUEUE_MODULE,
    settingsModule(MessagingSettings),
    EventsModule,
    MessagingPersonalDataModule,
  ],
  providers: [MessagesService, MessagesProducer],
  exports: [MessagesService, MESSAGES_QUEUE_MODULE, settingsModule(MessagingSettings)],
})
export class MessagingModule {}
