import { double } from '../../../../test/support/doubles';
import type { MessageDto } from '../dto/message.dto';
import type { MessagesService } from '../messages.service';
import { MessageDelivery } from './message-delivery.service';
import type { MessageTransport } from './message-transport';

const MESSAGE: MessageDto = {
  id: 'msg_000000000000000000000001',
  message: 'hello',
  status: 'sending',
  createdAt: '2026-06-01T00:00:00.000Z',
  attempts: 1,
  sentAt: null,
  lastError: null,
};

function setUp({ finished = false } = {}) {
  const messages = {
    startSending: jest.fn().mockResolvedValue(finished ? undefined : MESSAGE),
    markSent: jest.fn().mockResolvedValue(undefined),
    recordError: jest.fn().mockResolvedValue(undefined),
    markFailed: jest.fn().mockResolvedValue(undefined),
  } satisfies Partial<MessagesService>;
  const transport = { send: jest.fn().mockResolvedValue(undefined) } satisfies Partial<MessageTransport>;
  const delivery = new MessageDelivery(double<MessagesService>(messages), double<MessageTransport>(transport));
  return { delivery, messages, transport };
}

describe('MessageDelivery', () => {
  it('claims the message, hands it to the transport and marks it sent', async () => {
    const { delivery, messages, transport } = setUp();
    await expect(delivery.attempt(MESSAGE.id, false)).resolves.toBe('sent');
    expect(messages.startSending).toHaveBeenCalledWith(MESSAGE.id);
    expect(transport.send).toHaveBeenCalledWith(MESSAGE);
    expect(messages.markSent).toHaveBeenCalledWith(MESSAGE.id);
  });

  it('delivers nothing again when the message is already sent or failed (a job that runs twice)', async () => {
    const { delivery, messages, transport } = setUp({ finished: true });
    await expect(delivery.attempt(MESSAGE.id, false)).resolves.toBe('skipped');
    expect(transport.send).not.toHaveBeenCalled();
    expect(messages.markSent).not.toHaveBeenCalled();
  });

  it('keeps the error of a failed attempt and rethrows it so the queue retries', async () => {
    const { delivery, messages, transport } = setUp();
    transport.send.mockRejectedValue(new Error('webhook answered 500'));
    await expect(delivery.attempt(MESSAGE.id, false)).rejects.toThrow('webhook answered 500');
    expect(messages.recordError).toHaveBeenCalledWith(MESSAGE.id, 'webhook answered 500');
    expect(messages.markFailed).not.toHaveBeenCalled();
    expect(messages.markSent).not.toHaveBeenCalled();
  });

  it('marks the message failed, with the error, when the last attempt fails', async () => {
    const { delivery, messages, transport } = setUp();
    transport.send.mockRejectedValue(new Error('webhook did not answer within 5000 ms'));
    await expect(delivery.attempt(MESSAGE.id, true)).rejects.toThrow();
    expect(messages.markFailed).toHaveBeenCalledWith(MESSAGE.id, 'webhook did not answer within 5000 ms');
    expect(messages.recordError).not.toHaveBeenCalled();
  });
});
