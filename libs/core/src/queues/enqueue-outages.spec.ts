import { Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { EnqueueOutages } from './enqueue-outages';

function setUp() {
  const queue = { on: jest.fn() } satisfies Pick<Queue, 'on'>;
  const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  const outages = new EnqueueOutages(queue, 'TestProducer', 'things', 'the sweep');
  return { queue, warn, outages };
}

describe('EnqueueOutages', () => {
  afterEach(() => jest.restoreAllMocks());

  it('listens to the queue’s errors, so BullMQ does not print each outage again', () => {
    const { queue } = setUp();
    expect(queue.on).toHaveBeenCalledWith('error', expect.any(Function));
  });

  it('says the jobs were taken when Redis answered', async () => {
    const { outages, warn } = setUp();
    await expect(outages.enqueue(() => Promise.resolve('job'), 1000)).resolves.toBe(true);
    expect(warn).not.toHaveBeenCalled();
  });

  it('says they were not, never throwing, when Redis refused or did not answer within the bound', async () => {
    const { outages } = setUp();
    await expect(outages.enqueue(() => Promise.reject(new Error('Connection is closed.')), 1000)).resolves.toBe(false);
    await expect(outages.enqueue(() => new Promise(() => undefined), 10)).resolves.toBe(false);
    await expect(
      outages.enqueue(() => {
        throw new Error('thrown before any command');
      }, 1000),
    ).resolves.toBe(false);
  });

  it('logs an outage once when it begins, and again only for the next one', async () => {
    const { outages, warn } = setUp();
    const refused = () => Promise.reject(new Error('Connection is closed.'));
    await outages.enqueue(refused, 1000);
    await outages.enqueue(refused, 1000);
    expect(warn.mock.calls).toEqual([['cannot enqueue things, the sweep will: Connection is closed.']]);

    await outages.enqueue(() => Promise.resolve(), 1000);
    await outages.enqueue(refused, 1000);
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
