import type { Provider } from '@nestjs/common';
import type { MessageDto } from '../dto/message.dto';
import { MessagingSettings } from '../messaging.settings';
import { LogTransport } from './log.transport';
import { WebhookTransport } from './webhook.transport';

/** Where delivered messages go. Throwing fails the attempt, and BullMQ retries it. */
export abstract class MessageTransport {
  abstract send(message: MessageDto): Promise<void>;
}

/** `MESSAGES_TRANSPORT` picks the transport: `log` (default) or `webhook`. */
export const messageTransportProvider: Provider = {
  provide: MessageTransport,
  inject: [MessagingSettings],
  useFactory: (settings: MessagingSettings): MessageTransport =>
    settings.MESSAGES_TRANSPORT === 'webhook' ? new WebhookTransport(settings) : new LogTransport(),
};
