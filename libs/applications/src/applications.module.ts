import { settingsModule } from '@app/core';
import { EmailModule } from '@app/email';
import { EventsModule } from '@app/events';
import { OrderFollower, OrdersModule } from '@app/orders';
import { PetRemovalFollower, PetsModule } from '@app/pets';
import { Global, Module } from '@nestjs/common';
import { ApplicationFollower } from './application-follower';
import { ApplicationFormsController } from './application-forms.controller';
import { ApplicationFormsRepository } from './application-forms.repository';
import { ApplicationFormsService } from './application-forms.service';
import { ApplicationMessagesRepository } from './application-messages.repository';
import { ApplicationNotifications } from './application-notifications';
import { ApplicationsController } from './applications.controller';
import { ApplicationsRepository } from './applications.repository';
import { ApplicationSubmissions } from './application-submissions';
import { ApplicationsService } from './applications.service';
import { ApplicationsSettings } from './applications.settings';
import { ApplicationsJobsSettings } from './applications-jobs.settings';
import { ApplicationsPersonalData } from './applications-personal-data.part';
import { MeetingReminders } from './meetings/meeting-reminders';
import { MeetingsController } from './meetings/meetings.controller';
import { MeetingsRepository } from './meetings/meetings.repository';
import { MeetingsService } from './meetings/meetings.service';
import { ApplicationsRetention } from './retention/applications-retention';

/**
 * How applications follow their orders and pets: it provides the ports the store and the catalogue declare
 * (`OrderFollower`, `PetRemovalFollower`), global so that their modules find them without importing this
 * context. Imported by every app that changes orders or pets (the api, the worker).
 */
@Global()
@Module({
  imports: [EventsModule, EmailModule],
  providers: [
    ApplicationsRepository,
    ApplicationFormsRepository,
    ApplicationNotifications,
    MeetingsRepository,
    MeetingsService,
    ApplicationFollower,
    { provide: OrderFollower, useExisting: ApplicationFollower },
    { provide: PetRemovalFollower, useExisting: ApplicationFollower },
  ],
  exports: [
    ApplicationsRepository,
    ApplicationFormsRepository,
    ApplicationNotifications,
    MeetingsRepository,
    MeetingsService,
    OrderFollower,
    PetRemovalFollower,
  ],
})
class ApplicationFollowersModule {}

/** Applications without HTTP: forms, applications, their conversations, their part of personal data. */
@Module({
  imports: [ApplicationFollowersModule, OrdersModule, PetsModule, settingsModule(ApplicationsSettings)],
  providers: [
    ApplicationMessagesRepository,
    ApplicationFormsService,
    ApplicationSubmissions,
    ApplicationsService,
    ApplicationsPersonalData,
  ],
  exports: [ApplicationFormsService, ApplicationsService],
})
class ApplicationsModule {}

/** `/v1/application-form`, `/v1/pets/{petId}/application-form`, `/v1/applications` and their meetings. */
@Module({
  imports: [ApplicationsModule],
  controllers: [ApplicationFormsController, ApplicationsController, MeetingsController],
})
export class ApplicationsHttpModule {}

/**
 * The applications' periodic jobs, for the worker: the meetings' reminders and the retention; and their part
 * of a deleted account's erasure.
 */
@Module({
  imports: [ApplicationsModule, settingsModule(ApplicationsJobsSettings)],
  providers: [MeetingReminders, ApplicationsRetention],
})
export class ApplicationsWorkerModule {}
