import { randomUUID } from 'node:crypto';
import { MESSAGES_QUEUE } from '@app/messaging';
import { Backoffs } from 'bullmq';
import { MessagesService } from '../../libs/messaging/src/messages.service';
import { withDatabase } from '../support/database';
import type { TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { createAccount, createMessagesApp, StoredMessage, storedMessage, waitForEnqueued } from '../support/messages';
import { testQueue } from '../support/redis';

const STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
type Status = (typeof STATUSES)[number];

/**
 * The lifecycle `queued → sending → sent | failed`, as the statuses each step may start from. `sent`
 * and `failed` are final: no step leaves them, however often a job runs.
 */
const LIFECYCLE: Record<'startSending' | 'recordError' | 'markSent' | 'markFailed', Status[]> = {
  // A retry, or a job recovered from a worker that died, starts again from `sending`.
  startSending: ['queued', 'sending'],
  recordError: ['sending'],
  markSent: ['sending'],
  // A job BullMQ gave up on without running it fails the message from `queued`.
  markFailed: ['queued', 'sending'],
};
const cases = (step: keyof typeof LIFECYCLE) =>
  STATUSES.map((from) => {
    const allowed = LIFECYCLE[step].includes(from);
    return { from, allowed, outcome: allowed ? 'applies' : 'leaves it as it is' };
  });

describe('message lifecycle', () => {
  let app: TestHttpApp;
  let account: TestAccount;
  let messages: MessagesService;

  beforeAll(async () => {
    app = await createMessagesApp({ env: { MESSAGES_MAX_ATTEMPTS: '4', MESSAGES_BACKOFF_MS: '250' } });
    account = await createAccount(app);
    messages = app.app.get(MessagesService);
  });
  afterAll(() => app.close());

  describe('status changes are guarded in PostgreSQL', () => {
    /** A stored message in `status`, written directly: no job is enqueued for it. */
    async function storedIn(status: Status): Promise<StoredMessage> {
      const id = `msg_${randomUUID().replaceAll('-', '')}`;
      await withDatabase((db) =>
        db.query(`INSERT INTO messages (id, account_id, message, status) VALUES ($1, $2, 'Rex is home', $3)`, [
          id,
          account.accountId,
          status,
        ]),
      );
      return (await storedMessage(id))!;
    }

    it.each(cases('startSending'))('startSending on a $from message $outcome', async ({ from, allowed }) => {
      const before = await storedIn(from);
      const claimed = await messages.startSending(before.id);
      const after = (await storedMessage(before.id))!;
      if (allowed) {
        expect(claimed).toMatchObject({ id: before.id, status: 'sending' });
        expect(after).toMatchObject({ status: 'sending', attempts: before.attempts + 1, sending_at: expect.any(Date) });
      } else {
        expect(claimed).toBeUndefined();
        expect(after).toEqual(before);
      }
    });

    it.each(cases('markSent'))('markSent on a $from message $outcome', async ({ from, allowed }) => {
      const before = await storedIn(from);
      await messages.markSent(before.id);
      const after = (await storedMessage(before.id))!;
      if (allowed) expect(after).toMatchObject({ status: 'sent', sent_at: expect.any(Date) });
      else expect(after).toEqual(before);
    });

    it.each(cases('recordError'))('recordError on a $from message $outcome', async ({ from, allowed }) => {
      const before = await storedIn(from);
      await messages.recordError(before.id, 'receiver answered 503');
      const after = (await storedMessage(before.id))!;
      if (allowed) expect(after).toEqual({ ...before, last_error: 'receiver answered 503' });
      else expect(after).toEqual(before);
    });

    it.each(cases('markFailed'))('markFailed on a $from message $outcome', async ({ from, allowed }) => {
      const before = await storedIn(from);
      await messages.markFailed(before.id, 'gave up');
      const after = (await storedMessage(before.id))!;
      if (allowed)
        expect(after).toMatchObject({ status: 'failed', failed_at: expect.any(Date), last_error: 'gave up' });
      else expect(after).toEqual(before);
    });
  });

  it('gives each delivery job its attempts and an exponential backoff from MESSAGES_BACKOFF_MS', async () => {
    const accepted = await app.http.post('/messages').set(account.auth).send({ message: 'Max is home' }).expect(202);
    await waitForEnqueued(accepted.body.id);
    const queue = testQueue(MESSAGES_QUEUE);
    const job = (await queue.getJob(accepted.body.id))!;
    try {
      expect(job.opts.attempts).toBe(4);
      expect(job.opts.backoff).toEqual({ type: 'exponential', delay: 250 });
      // The waits BullMQ applies after the first, second and third failed attempts: doubling each time.
      const delays = [1, 2, 3].map((attemptsMade) =>
        Backoffs.calculate(Backoffs.normalize(job.opts.backoff!)!, attemptsMade, new Error('failed'), job),
      );
      expect(delays).toEqual([250, 500, 1000]);
    } finally {
      // No worker runs here; the job would wait for one of a later suite.
      await job.remove();
      await queue.close();
    }
  });
});
