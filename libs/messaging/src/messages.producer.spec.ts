import type { CoreSettings } from '@app/core';
import type { Queue } from 'bullmq';
import { double, jobDouble } from '../../../test/support/doubles';
import { MessagesProducer } from './messages.producer';
import type { DeliverMessageJobData } from './messages.queue';

/** A producer whose queue adds a job once `redisAnswers` settles. */
function setUp(redisAnswers: () => Promise<void>) {
  const queue = {
    on: jest.fn(),
    add: jest.fn(async (name: string, data: DeliverMessageJobData) => {
      await redisAnswers();
      return jobDouble({ name, data });
    }),
  } satisfies Partial<Queue>;
  const producer = new MessagesProducer(double<Queue>(queue), { REDIS_COMMAND_TIMEOUT_MS: 20 } as CoreSettings);
  return { producer, queue };
}

describe('MessagesProducer', () => {
  it('adds delivery jobs whose ids are the message ids, so enqueueing twice adds one job each', async () => {
    const { producer, queue } = setUp(async () => undefined);
    await expect(producer.enqueue(['msg_a', 'msg_b'])).resolves.toBe(true);
    expect(queue.add.mock.calls).toEqual([
      ['deliver', { messageId: 'msg_a' }, { jobId: 'msg_a' }],
      ['deliver', { messageId: 'msg_b' }, { jobId: 'msg_b' }],
    ]);
  });

  it('reports failure when Redis refuses any one of the jobs', async () => {
    let calls = 0;
    const { producer } = setUp(() => (++calls === 2 ? Promise.reject(new Error('OOM')) : Promise.resolve()));
    await expect(producer.enqueue(['msg_a', 'msg_b', 'msg_c'])).resolves.toBe(false);
  });

  it('reports failure at once when Redis refuses the command', async () => {
    const { producer } = setUp(() => Promise.reject(new Error("Stream isn't writeable")));
    await expect(producer.enqueue(['msg_a'])).resolves.toBe(false);
  });

  it('gives up after REDIS_COMMAND_TIMEOUT_MS when Redis does not answer', async () => {
    const { producer } = setUp(() => new Promise<void>(() => undefined));
    await expect(producer.enqueue(['msg_a'])).resolves.toBe(false);
  });
});
