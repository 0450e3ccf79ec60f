import type { ServerResponse } from 'node:http';
import { WORKER_CONCURRENCY, useDeliveryFaults } from '../support/delivery-faults';
import { waitFor } from '../support/processes';

describe('faults: message delivery through a killed and a frozen worker', () => {
  const { receivers, workers, accounts, waitForSent, accept, answerAtOnce, hold, expectSentOnce } = useDeliveryFaults([
    'worker-kill',
    'worker-freeze',
  ]);

  it('delivers the jobs of a worker SIGKILLed mid-delivery through the other worker, each marked sent once', async () => {
    const [victimReceiver, survivorReceiver] = receivers;
    // The victim's deliveries never finish; the survivor's take a moment, so both workers take jobs.
    hold(victimReceiver!, []);
    survivorReceiver!.answer = (_delivery, response) => setTimeout(() => response.writeHead(204).end(), 200);
    const ids = await accept(accounts['worker-kill']!, 4 * WORKER_CONCURRENCY, 'through a worker crash');
    await waitFor(async () => victimReceiver!.deliveries.length > 0, 10000, 'a delivery at the victim');
    await workers[0]!.stop('SIGKILL');
    workers[0] = undefined;

    const rows = await waitForSent(ids);
    await expectSentOnce(ids);
    // What the victim had in flight was delivered again by the survivor, as a second attempt.
    const interrupted = ids.filter((id) => victimReceiver!.of(id).length > 0);
    expect(interrupted.length).toBeGreaterThan(0);
    for (const id of interrupted) {
      expect(survivorReceiver!.of(id).length).toBeGreaterThanOrEqual(1);
      expect(rows.find((row) => row.id === id)!.attempts).toBeGreaterThanOrEqual(2);
    }
  });

  it('marks a message sent once when a worker frozen past its lock finishes a delivery the other took over', async () => {
    const [victimReceiver, survivorReceiver] = receivers;
    const victim = workers[0]!;
    const held: ServerResponse[] = [];
    hold(victimReceiver!, held);
    const ids = await accept(accounts['worker-freeze']!, 2 * WORKER_CONCURRENCY, 'through a worker freeze');
    await waitFor(async () => held.length > 0, 10000, 'a delivery at the worker to freeze');
    victim.child.kill('SIGSTOP');
    try {
      // Its lock lapses while it is frozen, and the other worker delivers what it held.
      await waitForSent(ids);
    } finally {
      // Its deliveries succeed now, late: thawed, it goes on to record them as sent, which must change nothing.
      answerAtOnce(victimReceiver!);
      for (const response of held) response.writeHead(204).end();
      victim.child.kill('SIGCONT');
    }
    // A stopping worker lets its running jobs finish: once it has exited, their late outcome was recorded.
    await victim.stop();
    workers[0] = undefined;

    await expectSentOnce(ids);
    const overtaken = ids.filter((id) => victimReceiver!.of(id).length > 0);
    expect(overtaken.length).toBeGreaterThan(0);
    for (const id of overtaken) expect(survivorReceiver!.of(id).length).toBeGreaterThanOrEqual(1);
  });
});
