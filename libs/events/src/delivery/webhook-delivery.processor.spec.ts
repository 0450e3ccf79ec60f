import { DelayedError, UnrecoverableError } from 'bullmq';
import { double, jobDouble } from '../../../../test/support/doubles';
import type { DeliverEventJobData } from '../events.queue';
import { WebhookAttemptFailedError, WebhookDeliveryService } from './webhook-delivery.service';
import { EventsSettings } from '../events.settings';
import { WebhookDeliveryProcessor, webhookWorkerOptions } from './webhook-delivery.processor';

describe('WebhookDeliveryProcessor', () => {
  const delivery = { attempt: jest.fn() } satisfies Partial<WebhookDeliveryService>;
  const processor = new WebhookDeliveryProcessor(double<WebhookDeliveryService>(delivery), 5000);
  const data: DeliverEventJobData = { eventId: 'evt_1', endpointId: 7 };
  const job = (attemptsStarted: number, attemptsMade: number) =>
    jobDouble<DeliverEventJobData>({
      data,
      attemptsStarted,
      attemptsMade,
      moveToDelayed: jest.fn().mockResolvedValue(undefined),
    });

  beforeEach(() => delivery.attempt.mockReset().mockResolvedValue(undefined));

  it.each([
    ['its first run', 1, 0, true],
    ['a run after a failed attempt', 2, 1, false],
    // Neither a stall nor a delay adds to attemptsMade: only attemptsStarted tells these from a first run.
    ['a run after its worker stalled', 2, 0, false],
    ['a run after PostgreSQL was away', 3, 0, false],
  ])('tells the delivery whether it is the job’s first run: %s', async (_run, started, made, firstRun) => {
    await processor.process(job(started, made), 'token');
    expect(delivery.attempt).toHaveBeenCalledWith(data, firstRun);
  });

  it('lets the queue retry a failed attempt that is not the last', async () => {
    const failure = new WebhookAttemptFailedError('answered 500', false);
    delivery.attempt.mockRejectedValue(failure);
    await expect(processor.process(job(1, 0), 'token')).rejects.toBe(failure);
  });

  it('stops the queue retrying after the last attempt', async () => {
    delivery.attempt.mockRejectedValue(new WebhookAttemptFailedError('answered 500', true));
    await expect(processor.process(job(8, 7), 'token')).rejects.toBeInstanceOf(UnrecoverableError);
  });

  it.each([
    ['PostgreSQL is unavailable', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    [
      'PostgreSQL rolled the outcome back to settle a deadlock',
      Object.assign(new Error('deadlock'), { code: '40P01' }),
    ],
  ])('postpones without using up an attempt when %s', async (_case, error) => {
    const waiting = job(1, 0);
    delivery.attempt.mockRejectedValue(error);
    await expect(processor.process(waiting, 'token')).rejects.toBeInstanceOf(DelayedError);
    expect(waiting.moveToDelayed).toHaveBeenCalledWith(expect.any(Number), 'token');
  });

  it('fails the run on any other error, using up an attempt', async () => {
    const waiting = job(1, 0);
    const bug = new TypeError('not a function');
    delivery.attempt.mockRejectedValue(bug);
    await expect(processor.process(waiting, 'token')).rejects.toBe(bug);
    expect(waiting.moveToDelayed).not.toHaveBeenCalled();
  });
});

describe('webhookWorkerOptions', () => {
  it.each([30_000, 1_000, 120_000])(
    'has a dead worker’s jobs run again within WEBHOOK_LOCK_DURATION_MS (%i ms), as the webhooks guide says',
    (setting) => {
      const settings = Object.assign(new EventsSettings(), { WEBHOOK_LOCK_DURATION_MS: setting });
      const { lockDuration, stalledInterval } = webhookWorkerOptions(settings);
      // The lock expires at most lockDuration after the worker died; the check after the one that marked the
      // job (at most stalledInterval after the lock's last renewal) and after that expiry takes it over.
      const worstCase = Math.max(2 * stalledInterval!, lockDuration! + stalledInterval!);
      expect(worstCase).toBeLessThanOrEqual(setting);
    },
  );
});
