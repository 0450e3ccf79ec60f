import { ApplicationsWorkerModule } from '@app/applications';
import { AccountsWorkerModule } from '@app/accounts';
import { CoreModule, PeriodicJobsModule, settingsModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { EmailWorkerModule } from '@app/email';
import { EventsWorkerModule } from '@app/events';
import { IdempotencyModule, IdempotencyKeysPurger } from '@app/idempotency';
import { MessagingWorkerModule } from '@app/messaging';
import { OrdersWorkerModule } from '@app/orders';
import { OrganizationsModule } from '@app/organizations';
import { PhotosWorkerModule } from '@app/photos';
import { SavedSearchesWorkerModule } from '@app/saved-searches';
import { Module } from '@nestjs/common';
import { WorkerHealthServer } from './worker-health.server';
import { WorkerSettings } from './worker.settings';

/**
 * The worker: BullMQ processors (message delivery, webhook delivery, hold expiry), their reconcilers and
 * sweep, the events' dispatcher and retention, the saved searches' matcher, email delivery, the meetings' reminders,
 * the applications' retention, the purge of expired idempotency keys and the erasure of deleted accounts; no HTTP API.
 */
@Module({
  imports: [
    CoreModule,
    // Its statements find their rows by key or by a partial index: a cached plan serves every run.
    DatabaseModule.forRoot('cached'),
    IdempotencyModule,
    MessagingWorkerModule,
    OrdersWorkerModule,
    ApplicationsWorkerModule,
    EventsWorkerModule,
    PhotosWorkerModule,
    SavedSearchesWorkerModule,
    EmailWorkerModule,
    // The erasure of deleted accounts, across every context's part of personal data.
    OrganizationsModule,
    AccountsWorkerModule,
    settingsModule(WorkerSettings),
    // Runs the reconcilers, the sweeps, retention and the purge that the modules above provide.
    PeriodicJobsModule,
  ],
  providers: [WorkerHealthServer, IdempotencyKeysPurger],
})
export class WorkerModule {}
