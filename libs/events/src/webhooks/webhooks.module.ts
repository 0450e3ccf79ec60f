import { AppEnv, CoreSettings } from '@app/core';
import { Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { WebhookDeliveriesRepository } from '../delivery/webhook-deliveries.repository';
import { EventsModule } from '../events.module';
import { EventsSettings } from '../events.settings';
import { HOST_RESOLVER, systemResolver } from './public-addresses';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookSecrets } from './webhook-secrets';

/** Endpoints, their sealed secrets and deliveries' storage: shared by the api and the worker. */
@Module({
  imports: [EventsModule],
  providers: [
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    WebhookEndpointsService,
    WebhookSecrets,
    { provide: HOST_RESOLVER, useValue: systemResolver },
  ],
  exports: [
    EventsModule,
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    WebhookEndpointsService,
    WebhookSecrets,
    HOST_RESOLVER,
  ],
})
export class WebhooksModule implements OnApplicationBootstrap {
  private readonly logger = new Logger(WebhooksModule.name);

  constructor(
    private readonly settings: EventsSettings,
    private readonly env: CoreSettings,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.settings.WEBHOOK_SECRETS_KEY && this.env.APP_ENV !== AppEnv.Development)
      this.logger.warn('WEBHOOK_SECRETS_KEY is not set: webhook secrets are stored under the development key');
  }
}
