import { CoreModule } from '@app/core';
import { IdempotencyModule, IdempotencyKeysPurger } from '@app/idempotency';
import { MessagingWorkerModule } from '@app/messaging';
import { Module } from '@nestjs/common';
import { WorkerHealthServer } from './worker-health.server';

/** The worker: BullMQ processors, their reconciler and the purge of expired idempotency keys; no HTTP API. */
@Module({
  imports: [CoreModule, IdempotencyModule, MessagingWorkerModule],
  providers: [WorkerHealthServer, IdempotencyKeysPurger],
})
export class WorkerModule {}
