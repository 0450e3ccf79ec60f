import type { Provider } from '@nestjs/common';
import { MessagingSettings } from '../messaging.settings';
import { LogTransport } from './log.transport';
import { MessageTransport } from './message-transport';
import { WebhookTransport } from './webhook.transport';

/** `MESSAGES_TRANSPORT` picks the transport: `log` (default) or `webhook`. */
export const messageTransportProvider: Provider = {
  provide: MessageTransport,
  inject: [MessagingSettings],
  useFactory: (settings: MessagingSettings): MessageTransport =>
    settings.MESSAGES_TRANSPORT === 'webhook' ? new WebhookTransport(settings) : new LogTransport(),
};
