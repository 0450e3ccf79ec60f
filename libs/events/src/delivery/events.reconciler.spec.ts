import type { Queue } from 'bullmq';
import type { DeliverEventJobData, DeliveredAttempt } from '../events.queue';
import type { EventsSettings } from '../events.settings';
import { EventsReconciler } from './events.reconciler';
import type { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import type { WebhookJobsProducer } from './webhook-jobs.producer';

type JobState = { state: 'completed'; returnvalue: DeliveredAttempt | null } | { state: 'failed' | 'waiting' };

const delivery = (eventId: string): DeliverEventJobData => ({ eventId, endpointId: 7 });

function setUp(enqueued: DeliverEventJobData[], jobs: Record<string, JobState>) {
  const deliveries = {
    findUnenqueued: jest.fn().mockResolvedValue([]),
    flushEnqueued: jest.fn().mockResolvedValue(undefined),
    findEnqueued: jest.fn().mockResolvedValue(enqueued),
    recordOutcome: jest.fn().mockResolvedValue(undefined),
    abandon: jest.fn().mockResolvedValue(undefined),
    closeInterrupted: jest.fn().mockResolvedValue(0),
  };
  const producer = { enqueue: jest.fn().mockResolvedValue(true) };
  const queue = {
    getJob: jest.fn(async (id: string) => {
      const job = jobs[id];
      return (
        job && {
          returnvalue: job.state === 'completed' ? job.returnvalue : null,
          isCompleted: async () => job.state === 'completed',
          isFailed: async () => job.state === 'failed',
        }
      );
    }),
  };
  const reconciler = new EventsReconciler(
    deliveries as unknown as WebhookDeliveriesRepository,
    producer as unknown as WebhookJobsProducer,
    queue as unknown as Queue<DeliverEventJobData>,
    { EVENTS_RECONCILE_INTERVAL_MS: 10000, WEBHOOK_TIMEOUT_MS: 1000 } as EventsSettings,
  );
  return { reconciler, deliveries, producer };
}

describe('EventsReconciler', () => {
  it('records the success a completed job returned, whose worker stopped before writing it', async () => {
    const delivered = delivery('evt_delivered');
    const { reconciler, deliveries, producer } = setUp([delivered], {
      'evt_delivered.7': { state: 'completed', returnvalue: { attemptId: 41, responseStatus: 204, durationMs: 12 } },
    });
    await reconciler.sweep();
    expect(deliveries.recordOutcome.mock.calls).toEqual([
      [delivered, 41, { succeeded: true, responseStatus: 204, durationMs: 12 }, true],
    ]);
    expect(deliveries.abandon).not.toHaveBeenCalled();
    expect(producer.enqueue).not.toHaveBeenCalled();
  });

  it('settles as failed a delivery whose job failed for good, or completed with nothing sent, and enqueues again one whose job is gone', async () => {
    const [failed, skipped, lost, waiting] = ['evt_failed', 'evt_skipped', 'evt_lost', 'evt_waiting'].map(delivery);
    const { reconciler, deliveries, producer } = setUp([failed!, skipped!, lost!, waiting!], {
      'evt_failed.7': { state: 'failed' },
      'evt_skipped.7': { state: 'completed', returnvalue: null },
      'evt_waiting.7': { state: 'waiting' },
    });
    await reconciler.sweep();
    expect(deliveries.abandon.mock.calls).toEqual([[failed], [skipped]]);
    expect(deliveries.recordOutcome).not.toHaveBeenCalled();
    expect(producer.enqueue.mock.calls).toEqual([[[lost]]]);
  });
});
