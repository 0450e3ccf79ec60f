import { queuePrefix, type RedisClient, RequestPathRedisModule } from '@app/core';
import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { EventsModule } from '../events.module';
import { WEBHOOKS_QUEUE } from '../events.queue';
import { EventsSettings } from '../events.settings';
import { WebhookJobsProducer } from './webhook-jobs.producer';

const WEBHOOKS_QUEUE_REDIS = Symbol('WEBHOOKS_QUEUE_REDIS');
const DAY_SECONDS = 24 * 60 * 60;

const WEBHOOKS_QUEUE_REDIS_MODULE = RequestPathRedisModule.provide(WEBHOOKS_QUEUE_REDIS, 'webhooks-queue');

const WEBHOOKS_QUEUE_MODULE = BullModule.registerQueueAsync({
  name: WEBHOOKS_QUEUE,
  imports: [WEBHOOKS_QUEUE_REDIS_MODULE, EventsModule],
  inject: [EventsSettings, WEBHOOKS_QUEUE_REDIS],
  useFactory: (settings: EventsSettings, redis: RedisClient) => ({
    connection: redis,
    prefix: queuePrefix(WEBHOOKS_QUEUE),
    defaultJobOptions: {
      attempts: settings.WEBHOOK_MAX_ATTEMPTS,
      backoff: { type: 'exponential', delay: settings.WEBHOOK_BACKOFF_MS },
      // The attempts are the record. A completed job is kept for the reconciler, which writes the success
      // it returned when its worker stopped before writing it; past these bounds the delivery is sent again.
      removeOnComplete: { age: DAY_SECONDS, count: 10_000 },
      removeOnFail: { age: 7 * DAY_SECONDS },
    },
  }),
});

/**
 * The "webhooks" queue and its producer: the worker's dispatcher and reconciler add delivery jobs, and so
 * does the api for the attempts an account asks for (a redelivery, a test event).
 */
@Module({
  imports: [WEBHOOKS_QUEUE_REDIS_MODULE, WEBHOOKS_QUEUE_MODULE],
  providers: [WebhookJobsProducer],
  exports: [WEBHOOKS_QUEUE_MODULE, WebhookJobsProducer],
})
export class WebhooksQueueModule {}
