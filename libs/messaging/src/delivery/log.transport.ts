import { Logger } from '@nestjs/common';
import type { MessageDto } from '../dto/message.dto';
import type { MessageTransport } from './message-transport';

/** Delivers a message as one structured log line: the default, for development and trials. */
export class LogTransport implements MessageTransport {
  private readonly logger = new Logger(LogTransport.name);

  async send(message: MessageDto): Promise<void> {
    this.logger.log({ messageId: message.id, message: message.message, createdAt: message.createdAt }, 'message sent');
  }
}
