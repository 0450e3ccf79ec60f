import { queuePrefix, type RedisClient, RequestPathRedisModule, settingsModule } from '@app/core';
import { EventsModule } from '@app/events';
import { PetsModule } from '@app/pets';
import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { InventoryRepository } from './inventory.repository';
import { OrderExpiryScheduler } from './order-expiry.scheduler';
import { OrderPlacingService } from './order-placing.service';
import { OrdersController } from './orders.controller';
import { ORDERS_QUEUE, ORDERS_QUEUE_REDIS } from './orders.queue';
import { OrdersPersonalData } from './orders-personal-data.part';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';
import { OrdersSettings } from './orders.settings';

const DAY_SECONDS = 24 * 60 * 60;

const ORDERS_QUEUE_REDIS_MODULE = RequestPathRedisModule.provide(ORDERS_QUEUE_REDIS, 'orders-queue');

const ORDERS_QUEUE_MODULE = BullModule.registerQueueAsync({
  name: ORDERS_QUEUE,
  imports: [ORDERS_QUEUE_REDIS_MODULE],
  inject: [ORDERS_QUEUE_REDIS],
  useFactory: (redis: RedisClient) => ({
    connection: redis,
    prefix: queuePrefix(ORDERS_QUEUE),
    defaultJobOptions: {
      // The sweep backs every job up, so a few quick retries are enough.
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: DAY_SECONDS, count: 10_000 },
      removeOnFail: { age: 7 * DAY_SECONDS },
    },
  }),
});

/** The store without HTTP: orders, their pets' holds, the inventory and the expiry queue. */
@Module({
  imports: [PetsModule, EventsModule, ORDERS_QUEUE_REDIS_MODULE, ORDERS_QUEUE_MODULE, settingsModule(OrdersSettings)],
  providers: [
    OrdersRepository,
    InventoryRepository,
    OrdersService,
    OrderPlacingService,
    OrderExpiryScheduler,
    OrdersPersonalData,
  ],
  exports: [OrdersService, ORDERS_QUEUE_MODULE, settingsModule(OrdersSettings)],
})
export class OrdersModule {}

/** `/v1/store/...`. */
@Module({ imports: [OrdersModule], controllers: [OrdersController] })
export class OrdersHttpModule {}
