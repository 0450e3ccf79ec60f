import { AccountsHttpModule, ApiKeyGuard } from '@app/accounts';
import { ApplicationsHttpModule } from '@app/applications';
import { CoreModule } from '@app/core';
import { DatabaseModule, ReadYourWritesInterceptor } from '@app/database';
import { EmailHttpModule } from '@app/email';
import { EventsHttpModule } from '@app/events';
import { HttpCoreModule, JsonBodyGuard } from '@app/http';
import { IdempotencyModule } from '@app/idempotency';
import { MessagingPersonalDataModule } from '@app/messaging';
import { OrdersHttpModule } from '@app/orders';
import { OrganizationsHttpModule } from '@app/organizations';
import { PetsHttpModule } from '@app/pets';
import { PhotosHttpModule } from '@app/photos';
import { RateLimitGuard, RateLimitingModule } from '@app/rate-limiting';
import { SavedSearchesHttpModule } from '@app/saved-searches';
import { WidgetModule } from '@app/widget';
import { Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { QueueDashboardModule } from './queue-dashboard.module';

/**
 * The catalogue app: pets, categories, organisations, the store, adoption applications, accounts and keys, events,
 * webhook endpoints, saved searches and email unsubscribe links under `/v1`, Swagger UI, health, queue dashboard,
 * the website widget.
 */
@Module({
  imports: [
    CoreModule,
    DatabaseModule.forRoot(),
    IdempotencyModule,
    HttpCoreModule,
    AccountsHttpModule,
    PetsHttpModule,
    PhotosHttpModule,
    OrdersHttpModule,
    ApplicationsHttpModule,
    OrganizationsHttpModule,
    EventsHttpModule,
    SavedSearchesHttpModule,
    EmailHttpModule,
    // The api serves no message, but exports and erases an account's.
    MessagingPersonalDataModule,
    RateLimitingModule,
    QueueDashboardModule,
    WidgetModule,
  ],
  // Rate limiting first, so that 401s carry its headers and count against the client IP.
  providers: [
    { provide: APP_GUARD, useExisting: RateLimitGuard },
    { provide: APP_GUARD, useExisting: ApiKeyGuard },
    { provide: APP_GUARD, useExisting: JsonBodyGuard },
    { provide: APP_INTERCEPTOR, useClass: ReadYourWritesInterceptor },
  ],
})
export class ApiModule {}
