import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { EndpointTargets } from './endpoint-targets';
import { EventsDispatcher } from './events.dispatcher';
import { EventsReconciler } from './events.reconciler';
import { EventsRetention } from './events-retention';
import { WebhookDelivery } from './webhook-delivery.service';
import { webhookDeliveryProcessorProvider } from './webhook-delivery.processor';

/** Delivery: the outbox's dispatcher, the processor, the reconciler and retention. Imported by the worker app only. */
@Module({
  imports: [WebhooksModule],
  providers: [
    EndpointTargets,
    EventsDispatcher,
    EventsReconciler,
    EventsRetention,
    WebhookDelivery,
    webhookDeliveryProcessorProvider,
  ],
})
export class EventsWorkerModule {}
