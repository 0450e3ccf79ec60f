import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { EndpointTargetsCache } from './endpoint-targets.cache';
import { EventsDispatcher } from './events.dispatcher';
import { EventsReconciler } from './events.reconciler';
import { EventsRetention } from './events-retention';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { webhookDeliveryProcessorProvider } from './webhook-delivery.processor';

/** Delivery: the outbox's dispatcher, the processor, the reconciler and retention. Imported by the worker app only. */
@Module({
  imports: [WebhooksModule],
  providers: [
    EndpointTargetsCache,
    EventsDispatcher,
    EventsReconciler,
    EventsRetention,
    WebhookDeliveryService,
    webhookDeliveryProcessorProvider,
  ],
})
export class EventsWorkerModule {}
