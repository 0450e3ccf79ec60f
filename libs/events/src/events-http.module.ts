import { Module } from '@nestjs/common';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhooksModule } from './webhooks/webhooks.module';

/** `/v1/events` and `/v1/webhook-endpoints`. */
@Module({
  imports: [WebhooksModule],
  providers: [EventsService],
  controllers: [EventsController, WebhookEndpointsController],
})
export class EventsHttpModule {}
