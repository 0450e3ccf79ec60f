import type { MessageDto } from '../dto/message.dto';

/** Where delivered messages go. Throwing fails the attempt, and BullMQ retries it. */
export abstract class MessageTransport {
  abstract send(message: MessageDto): Promise<void>;
}
