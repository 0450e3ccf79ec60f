import { CoreModule, IdempotencyKeysPurger } from '@app/core';
import { MessagingWorkerModule } from '@app/messaging';
import { Module } from '@nestjs/common';
import { WorkerHealthServer } from './worker-health.server';

/** The worker: BullMQ processors, their reconciler and the purge of expired idempotency keys; no HTTP API. */
@Module({
  imports: [CoreModule, MessagingWorkerModule],
  providers: [WorkerHealthServer, IdempotencyKeysPurger],
})
export class WorkerModule {}
