import { settingsModule } from '@app/core';
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
import { ApplicationsService } from './applications.service';
import { ApplicationsSettings } from './applications.settings';

/**
 * How applications follow their orders and pets: it provides the ports the store and the catalogue declare
 * (`OrderFollower`, `PetRemovalFollower`), global so that their modules find them without importing this
 * context. Imported by every app that changes orders or pets (the api, the worker).
 */
@Global()
@Module({
  imports: [EventsModule],
  providers: [
    ApplicationsRepository,
    ApplicationNotifications,
    ApplicationFollower,
    { provide: OrderFollower, useExisting: ApplicationFollower },
    { provide: PetRemovalFollower, useExisting: ApplicationFollower },
  ],
  exports: [ApplicationsRepository, ApplicationNotifications, OrderFollower, PetRemovalFollower],
})
export class ApplicationFollowersModule {}

/** Applications without HTTP: forms, applications, their conversations. */
@Module({
  imports: [ApplicationFollowersModule, OrdersModule, PetsModule, settingsModule(ApplicationsSettings)],
  providers: [ApplicationFormsRepository, ApplicationMessagesRepository, ApplicationFormsService, ApplicationsService],
  exports: [ApplicationFormsService, ApplicationsService],
})
class ApplicationsModule {}

/** `/v1/application-form`, `/v1/pets/{petId}/application-form` and `/v1/applications`. */
@Module({ imports: [ApplicationsModule], controllers: [ApplicationFormsController, ApplicationsController] })
export class ApplicationsHttpModule {}
