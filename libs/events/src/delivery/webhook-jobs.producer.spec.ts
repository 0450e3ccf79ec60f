import { double } from '../../../../test/support/doubles';
import type { CoreSettings } from '@app/core';
import type { Job, Queue } from 'bullmq';
import type { DeliverEventJobData } from '../events.queue';
import { WebhookJobsProducer } from './webhook-jobs.producer';

const deliveries = (count: number): DeliverEventJobData[] =>
  Array.from({ length: count }, (_, i) => ({ eventId: `evt_${i}`, endpointId: 7 }));

function setUp() {
  const answers: Array<(error?: Error) => void> = [];
  const queue = {
    on: jest.fn(),
    addBulk: jest.fn(
      (_jobs: Parameters<Queue<DeliverEventJobData>['addBulk']>[0]) =>
        new Promise<Job<DeliverEventJobData>[]>((resolve, reject) =>
          answers.push((error) => (error ? reject(error) : resolve([]))),
        ),
    ),
  } satisfies Partial<Queue<DeliverEventJobData>>;
  const producer = new WebhookJobsProducer(double<Queue<DeliverEventJobData>>(queue), {
    REDIS_COMMAND_TIMEOUT_MS: 1000,
  } as CoreSettings);
  return { producer, queue, answers };
}

describe('WebhookJobsProducer', () => {
  it('writes every chunk of 100 jobs before waiting for Redis, each job named by its delivery', async () => {
    const { producer, queue, answers } = setUp();
    const taken = producer.enqueue(deliveries(250));
    expect(queue.addBulk.mock.calls.map(([jobs]) => jobs.length)).toEqual([100, 100, 50]);
    expect(queue.addBulk.mock.calls[2]![0][49]).toMatchObject({
      data: { eventId: 'evt_249', endpointId: 7 },
      opts: { jobId: 'evt_249.7' },
    });
    for (const answer of answers) answer();
    await expect(taken).resolves.toBe(true);
  });

  it('names a manual attempt’s job by its number too, beside the delivery’s own, and lets it run once', async () => {
    const { producer, queue, answers } = setUp();
    const taken = producer.enqueue([{ eventId: 'evt_1', endpointId: 7, manualAttempt: 9 }]);
    expect(queue.addBulk.mock.calls[0]![0]).toEqual([
      {
        name: 'deliver',
        data: { eventId: 'evt_1', endpointId: 7, manualAttempt: 9 },
        opts: { jobId: 'evt_1.7.9', attempts: 1 },
      },
    ]);
    answers[0]!();
    await expect(taken).resolves.toBe(true);
  });

  it('says Redis did not take them all when one chunk failed, never throwing', async () => {
    const { producer, answers } = setUp();
    const taken = producer.enqueue(deliveries(150));
    answers[0]!();
    answers[1]!(new Error('Connection is closed.'));
    await expect(taken).resolves.toBe(false);
  });
});
