import { CoreModule } from '@app/core';
import { MessagingWorkerModule } from '@app/messaging';
import { Module } from '@nestjs/common';
import { WorkerHealthServer } from './worker-health.server';

/** The worker: BullMQ processors and their reconciler, no HTTP API. */
@Module({
  imports: [CoreModule, MessagingWorkerModule],
  providers: [WorkerHealthServer],
})
export class WorkerModule {}
