import type { Queue } from 'bullmq';
import { double, jobDouble } from '../../../../test/support/doubles';
import type { DeliverMessageJobData } from '../messages.queue';
import type { MessagesService } from '../messages.service';
import type { MessagingSettings } from '../messaging.settings';
import { MessagesReconciler } from './messages.reconciler';

function setUp() {
  const messages = {
    findUnenqueued: jest.fn().mockResolvedValue([]),
    findSending: jest.fn().mockResolvedValue([]),
    enqueue: jest.fn().mockResolvedValue(true),
    flushEnqueued: jest.fn().mockResolvedValue(undefined),
    markFailed: jest.fn().mockResolvedValue(undefined),
  } satisfies Partial<MessagesService>;
  const jobs = new Map<string, { failed: boolean; failedReason?: string }>();
  const queue = {
    getJob: jest.fn(async (id: string) => {
      const job = jobs.get(id);
      return (
        job && jobDouble<DeliverMessageJobData>({ failedReason: job.failedReason, isFailed: async () => job.failed })
      );
    }),
  } satisfies Partial<Queue>;
  const reconciler = new MessagesReconciler(double<MessagesService>(messages), double<Queue>(queue), {
    MESSAGES_RECONCILE_INTERVAL_MS: 10000,
  } as MessagingSettings);
  return { reconciler, messages, jobs };
}

describe('MessagesReconciler', () => {
  it('enqueues stored messages that no job was confirmed for, older than one interval', async () => {
    const { reconciler, messages } = setUp();
    messages.findUnenqueued.mockResolvedValueOnce(['msg_a', 'msg_b']);
    await reconciler.sweep();
    expect(messages.findUnenqueued).toHaveBeenCalledWith(10000, 500);
    expect(messages.enqueue.mock.calls).toEqual([[['msg_a', 'msg_b']]]);
  });

  it('stops when Redis does not take a batch, leaving the rest to the next sweep', async () => {
    const { reconciler, messages } = setUp();
    const full = Array.from({ length: 500 }, (_, i) => `msg_${i}`);
    messages.findUnenqueued.mockResolvedValueOnce(full).mockResolvedValueOnce(['msg_last']);
    messages.enqueue.mockResolvedValueOnce(false);
    await reconciler.sweep();
    expect(messages.findUnenqueued).toHaveBeenCalledTimes(1);
    expect(messages.flushEnqueued).not.toHaveBeenCalled();
  });

  it('takes batch after batch while batches are full', async () => {
    const { reconciler, messages } = setUp();
    const full = Array.from({ length: 500 }, (_, i) => `msg_${i}`);
    messages.findUnenqueued.mockResolvedValueOnce(full).mockResolvedValueOnce(['msg_last']);
    await reconciler.sweep();
    expect(messages.findUnenqueued).toHaveBeenCalledTimes(2);
    expect(messages.enqueue.mock.calls).toEqual([[full], [['msg_last']]]);
    // The first batch's enqueued_at is written before the query that would otherwise find it again.
    const [firstFlush] = messages.flushEnqueued.mock.invocationCallOrder;
    expect(firstFlush).toBeLessThan(messages.findUnenqueued.mock.invocationCallOrder[1]!);
  });

  it('enqueues again, together, the sending messages whose job is gone, and fails one whose job failed for good', async () => {
    const { reconciler, messages, jobs } = setUp();
    messages.findSending.mockResolvedValueOnce(['msg_gone', 'msg_failed', 'msg_running', 'msg_lost']);
    jobs.set('msg_failed', { failed: true, failedReason: 'job stalled more than allowable limit' });
    jobs.set('msg_running', { failed: false });
    await reconciler.sweep();
    expect(messages.enqueue.mock.calls).toEqual([[['msg_gone', 'msg_lost']]]);
    expect(messages.markFailed.mock.calls).toEqual([['msg_failed', 'job stalled more than allowable limit']]);
  });
});
