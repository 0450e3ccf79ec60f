import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { queuePrefix } from '@app/core';
import { MESSAGES_QUEUE } from '@app/messaging';
import { Queue } from 'bullmq';
import { Answer, MAX_ATTEMPTS, useDeliveryFaults, WORKER_CONCURRENCY, WORKERS } from '../support/delivery-faults';
import { waitFor } from '../support/processes';

describe('faults: message delivery through Redis and PostgreSQL outages', () => {
  const { postgres, redis, receivers, accounts, waitForSent, post, accept, answerAtOnce, hold, expectSentOnce } =
    useDeliveryFaults(['redis', 'postgres']);

  it('keeps accepting through a Redis kill and restart, and delivers every message it answered 202', async () => {
    const account = accounts.redis!;
    const pending: Array<Promise<Answer>> = [];
    let streaming = true;
    // A steady stream, not a burst: requests are in flight at the kill, during the outage and at the restart.
    const stream = (async () => {
      for (let i = 0; streaming; i++) {
        pending.push(post(account, `through a Redis restart ${i}`));
        await sleep(80);
      }
    })();
    await sleep(500);
    const killedAt = Date.now();
    await redis.kill();
    const downFrom = Date.now();
    await sleep(1000);
    const downUntil = Date.now();
    await redis.start();
    await sleep(500);
    streaming = false;
    await stream;
    const answers = await Promise.all(pending);

    for (const answer of answers) {
      // Each answered (else status 0 and the error), with 202 or the documented 503.
      expect(answer.error).toBeUndefined();
      expect([202, 503]).toContain(answer.status);
      if (answer.status === 503) {
        expect(answer.body).toMatchObject({ code: 'service_unavailable', status: 503 });
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    // Before the kill the limiter counts; while Redis is down the `open` policy admits without counting.
    const beforeKill = answers.filter((answer) => answer.answeredAt < killedAt);
    const whileDown = answers.filter((answer) => answer.startedAt >= downFrom && answer.answeredAt <= downUntil);
    expect(beforeKill.length).toBeGreaterThan(0);
    expect(whileDown.length).toBeGreaterThan(0);
    for (const answer of beforeKill) expect(answer.headers.get('x-ratelimit-limit')).not.toBeNull();
    for (const answer of whileDown) {
      expect(answer.status).toBe(202);
      expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
    }

    const accepted = answers.filter((answer) => answer.status === 202);
    for (const answer of accepted) {
      expect(answer.body).toMatchObject({ id: expect.stringMatching(/^msg_/), status: 'queued' });
      expect(answer.body.message).toMatch(/^through a Redis restart \d+$/);
    }
    const ids = accepted.map((answer) => answer.body.id!);
    await waitForSent(ids);
    await expectSentOnce(ids);
  });

  it('holds deliveries while PostgreSQL is down, without using up attempts, and sends them all once it is back', async () => {
    const queue = new Queue(MESSAGES_QUEUE, { connection: { url: redis.url }, prefix: queuePrefix(MESSAGES_QUEUE) });
    const held: ServerResponse[] = [];
    for (const receiver of receivers) hold(receiver, held);
    try {
      // Every worker busy with a delivery, the rest of the batch waiting in the queue.
      const ids = await accept(accounts.postgres!, (WORKERS + 1) * WORKER_CONCURRENCY, 'through a database outage');
      await waitFor(async () => held.length >= WORKERS * WORKER_CONCURRENCY, 10000, 'every worker to be busy');

      await postgres.stop();
      // The deliveries in flight succeed at the receiver, but cannot be recorded as sent yet.
      for (const response of held.splice(0)) response.writeHead(204).end();
      receivers.forEach(answerAtOnce);
      // Every job keeps being tried through the outage, more often than it has attempts, and none is used up.
      const retried = async () => {
        const jobs = await Promise.all(ids.map((id) => queue.getJob(id)));
        return jobs.every((job) => job !== undefined && job.attemptsStarted > MAX_ATTEMPTS);
      };
      await waitFor(retried, 15000, 'every job to be tried through the outage');
      for (const job of await Promise.all(ids.map((id) => queue.getJob(id)))) expect(job!.attemptsMade).toBe(0);

      await postgres.start();
      await waitForSent(ids);
      await expectSentOnce(ids);
    } finally {
      // Answers what is still held if the test failed early, so no worker waits out its webhook timeout.
      for (const response of held) response.writeHead(204).end();
      await queue.close();
    }
  });
});
