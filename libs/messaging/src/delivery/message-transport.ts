import { Environment } from '@app/core';
import type { Provider } from '@nestjs/common';
import type { MessageDto } from '../dto/message.dto';
import { LogTransport } from './log.transport';
import { WebhookTransport } from './webhook.transport';

/** Where delivered messages go. Throwing fails the attempt, and BullMQ retries it. */
export abstract class MessageTransport {
  abstract send(message: MessageDto): Promise<void>;
}

/** `MESSAGES_TRANSPORT` picks the transport: `log` (default) or `webhook`. */
export const messageTransportProvider: Provider = {
  provide: MessageTransport,
  inject: [Environment],
  useFactory: (env: Environment): MessageTransport =>
    env.MESSAGES_TRANSPORT === 'webhook' ? new WebhookTransport(env) : new LogTransport(),
};
