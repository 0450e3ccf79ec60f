import { DelayedError } from 'bullmq';
import { double, jobDouble } from '../../../../test/support/doubles';
import { DeliveryError } from '../messages.errors';
import type { MessagingSettings } from '../messaging.settings';
import type { DeliverMessageJobData } from '../messages.queue';
import type { MessageDelivery } from './message-delivery.service';
import { MessagesProcessor } from './messages.processor';

describe('MessagesProcessor', () => {
  const delivery = { attempt: jest.fn() } satisfies Partial<MessageDelivery>;
  const processor = new MessagesProcessor(double<MessageDelivery>(delivery), {
    MESSAGES_BACKOFF_MS: 1000,
  } as MessagingSettings);
  const job = (attemptsMade: number) =>
    jobDouble<DeliverMessageJobData>({
      data: { messageId: 'msg_a' },
      attemptsMade,
      opts: { attempts: 3 },
      moveToDelayed: jest.fn().mockResolvedValue(undefined),
    });

  beforeEach(() => delivery.attempt.mockReset().mockResolvedValue('sent'));

  it.each([
    [0, false],
    [1, false],
    [2, true],
  ])('hands the message to delivery; after %i failed attempts of 3, lastAttempt is %p', async (made, last) => {
    await expect(processor.process(job(made), 'token')).resolves.toBe('sent');
    expect(delivery.attempt).toHaveBeenLastCalledWith('msg_a', last);
  });

  it('fails the attempt when the transport fails, so BullMQ retries it with backoff', async () => {
    const failing = job(0);
    delivery.attempt.mockRejectedValue(new DeliveryError('webhook answered 500'));
    await expect(processor.process(failing, 'token')).rejects.toThrow('webhook answered 500');
    expect(failing.moveToDelayed).not.toHaveBeenCalled();
  });

  it('postpones without using up an attempt while PostgreSQL is unavailable', async () => {
    const waiting = job(2);
    delivery.attempt.mockRejectedValue(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    await expect(processor.process(waiting, 'token')).rejects.toBeInstanceOf(DelayedError);
    expect(waiting.moveToDelayed).toHaveBeenCalledWith(expect.any(Number), 'token');
  });
});
