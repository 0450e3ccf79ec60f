import { Injectable } from '@nestjs/common';
import { MessagesService } from '../messages.service';
import { messageDeliverySeconds } from './delivery.metrics';
import { MessageTransport } from './message-transport';

export type DeliveryOutcome = 'sent' | 'skipped';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One delivery attempt of a message: claim it (`sending`), hand it to the transport, record the
 * outcome. Delivery is at least once; its effect (`sent`, `failed`) happens once per message.
 */
@Injectable()
export class MessageDelivery {
  constructor(
    private readonly messages: MessagesService,
    private readonly transport: MessageTransport,
  ) {}

  /** Throws when the attempt failed, so the queue retries it; `lastAttempt` marks the message failed instead. */
  async attempt(messageId: string, lastAttempt: boolean): Promise<DeliveryOutcome> {
    const message = await this.messages.startSending(messageId);
    if (!message) return 'skipped';
    try {
      await this.transport.send(message);
    } catch (error) {
      if (lastAttempt) await this.messages.markFailed(messageId, describe(error));
      else await this.messages.recordError(messageId, describe(error));
      throw error;
    }
    await this.messages.markSent(messageId);
    messageDeliverySeconds.observe((Date.now() - Date.parse(message.createdAt)) / 1000);
    return 'sent';
  }
}
