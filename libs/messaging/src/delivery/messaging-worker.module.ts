import { Module } from '@nestjs/common';
import { MessagingModule } from '../messaging.module';
import { QueueDepthMetric } from './delivery.metrics';
import { MessageDelivery } from './message-delivery.service';
import { messageTransportProvider } from './message-transport.provider';
import { MessagesProcessor, messagesProcessorProvider } from './messages.processor';
import { MessagesReconciler } from './messages.reconciler';

/** Delivery: the processor, the transport and the reconciler. Imported by the worker app only. */
@Module({
  imports: [MessagingModule],
  providers: [
    messagesProcessorProvider,
    MessageDelivery,
    MessagesReconciler,
    messageTransportProvider,
    QueueDepthMetric,
  ],
  exports: [MessagesProcessor],
})
export class MessagingWorkerModule {}
