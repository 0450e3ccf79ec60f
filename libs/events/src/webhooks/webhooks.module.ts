import { settingsModule } from '@app/core';
import { Module } from '@nestjs/common';
import { WebhookAttemptsRepository } from '../delivery/webhook-attempts.repository';
import { WebhooksQueueModule } from '../delivery/webhooks-queue.module';
import { EventsPersonalData } from '../events-personal-data.part';
import { EventsModule } from '../events.module';
import { HOST_RESOLVER, systemResolver } from './public-addresses';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookSecrets } from './webhook-secrets';
import { WebhookSecretsSettings } from './webhook-secrets.settings';

/** Endpoints, their sealed secrets, deliveries' storage and queue: shared by the api and the worker. */
@Module({
  imports: [EventsModule, WebhooksQueueModule, settingsModule(WebhookSecretsSettings)],
  providers: [
    WebhookEndpointsRepository,
    WebhookAttemptsRepository,
    WebhookEndpointsService,
    WebhookSecrets,
    EventsPersonalData,
    { provide: HOST_RESOLVER, useValue: systemResolver },
  ],
  exports: [
    EventsModule,
    WebhooksQueueModule,
    WebhookEndpointsRepository,
    WebhookAttemptsRepository,
    WebhookEndpointsService,
    WebhookSecrets,
    HOST_RESOLVER,
  ],
})
export class WebhooksModule {}
