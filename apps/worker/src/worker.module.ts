import { CoreModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { IdempotencyModule, IdempotencyKeysPurger } from '@app/idempotency';
import { MessagingWorkerModule } from '@app/messaging';
import { Module } from '@nestjs/common';
import { WorkerHealthServer } from './worker-health.server';

/** The worker: BullMQ processors, their reconciler and the purge of expired idempotency keys; no HTTP API. */
@Module({
  imports: [CoreModule, DatabaseModule, IdempotencyModule, MessagingWorkerModule],
  providers: [WorkerHealthServer, IdempotencyKeysPurger],
})
export class WorkerModule {}
