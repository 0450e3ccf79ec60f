import type { Queue } from 'bullmq';
import { double, jobDouble } from '../../../../test/support/doubles';
import type { DeliverEventJobData, DeliveredAttempt } from '../events.queue';
import type { EventsSettings } from '../events.settings';
import { EventsReconciler, JOB_ENDED_UNHEARD } from './events.reconciler';
import type { AttemptKey, WebhookAttemptsRepository } from './webhook-attempts.repository';
import type { WebhookJobsProducer } from './webhook-jobs.producer';

type JobState =
  | { state: 'completed'; returnvalue: DeliveredAttempt | null }
  | { state: 'failed' | 'waiting' | 'delayed' | 'active' | 'unknown' };

const stale = (eventId: string, attemptId: number): AttemptKey => ({ eventId, endpointId: 7, attemptId });

/** A reconciler over `pages` of stale attempts, and the jobs Redis holds. */
function setUp(pages: AttemptKey[][], jobs: Record<string, JobState>) {
  const attempts = {
    findStale: jest.fn(async () => pages.shift() ?? []),
    recordOutcome: jest.fn().mockResolvedValue(undefined),
  } satisfies Partial<WebhookAttemptsRepository>;
  const producer = { enqueue: jest.fn().mockResolvedValue(true) } satisfies Partial<WebhookJobsProducer>;
  const removed: string[] = [];
  const queue = {
    getJob: jest.fn(async (id: string) => {
      const job = jobs[id];
      return (
        job &&
        jobDouble<DeliverEventJobData, DeliveredAttempt | null>({
          returnvalue: job.state === 'completed' ? job.returnvalue : null,
          getState: async () => job.state,
          remove: async () => {
            removed.push(id);
          },
        })
      );
    }),
  } satisfies Partial<Queue<DeliverEventJobData>>;
  const reconciler = new EventsReconciler(
    double<WebhookAttemptsRepository>(attempts),
    double<WebhookJobsProducer>(producer),
    double<Queue<DeliverEventJobData>>(queue),
    { EVENTS_RECONCILE_INTERVAL_MS: 10000 } as EventsSettings,
  );
  return { reconciler, attempts, producer, removed };
}

describe('EventsReconciler', () => {
  it('records the success a completed job returned, whose worker stopped before writing it', async () => {
    const { reconciler, attempts, producer } = setUp([[stale('evt_delivered', 41)]], {
      'evt_delivered.7': { state: 'completed', returnvalue: { responseStatus: 204, durationMs: 12 } },
    });
    await reconciler.sweep();
    expect(attempts.recordOutcome.mock.calls).toEqual([
      [stale('evt_delivered', 41), { succeeded: true, responseStatus: 204, durationMs: 12 }, false],
    ]);
    expect(producer.enqueue).not.toHaveBeenCalled();
  });

  it('fails the attempt of a job that failed for good or completed with nothing sent, enqueues again a delivery whose job is gone or broken, and leaves waiting, delayed and running ones', async () => {
    const [failed, skipped, lost, broken, waiting, delayed, active] = [
      stale('evt_failed', 1),
      stale('evt_skipped', 2),
      stale('evt_lost', 3),
      stale('evt_broken', 4),
      stale('evt_waiting', 5),
      stale('evt_delayed', 6),
      stale('evt_active', 7),
    ];
    const { reconciler, attempts, producer, removed } = setUp(
      [[failed!, skipped!, lost!, broken!, waiting!, delayed!, active!]],
      {
        'evt_failed.7': { state: 'failed' },
        'evt_skipped.7': { state: 'completed', returnvalue: null },
        'evt_broken.7': { state: 'unknown' },
        'evt_waiting.7': { state: 'waiting' },
        'evt_delayed.7': { state: 'delayed' },
        'evt_active.7': { state: 'active' },
      },
    );
    await reconciler.sweep();
    expect(attempts.recordOutcome.mock.calls).toEqual([
      [failed, { succeeded: false, error: JOB_ENDED_UNHEARD.failed }, false],
      [skipped, { succeeded: false, error: JOB_ENDED_UNHEARD.completed }, false],
    ]);
    expect(producer.enqueue.mock.calls).toEqual([[[lost, broken]]]);
    expect(removed).toEqual(['evt_broken.7']);
  });

  it('reads every page of stale attempts, each after the last attempt of the one before', async () => {
    const first = Array.from({ length: 500 }, (_, i) => stale(`evt_${i}`, i + 1));
    const { reconciler, attempts, producer } = setUp([first, [stale('evt_last', 900)]], {});
    await reconciler.sweep();
    expect(attempts.findStale.mock.calls).toEqual([
      [10000, 0, 500],
      [10000, 500, 500],
    ]);
    expect(producer.enqueue).toHaveBeenCalledTimes(2);
  });
});
