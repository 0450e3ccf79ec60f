import { startWorker, useMessagesApp, waitForStatus } from '../support/messages';
import { AppProcess, waitFor } from '../support/processes';

describe('the messages app with a real worker process (log transport)', () => {
  const suite = useMessagesApp();
  const send = (body: string | object) => suite.app.http.post('/messages').set(suite.account.auth).send(body);

  describe('delivery by a real worker process (log transport)', () => {
    let worker: AppProcess & { baseUrl: string };

    beforeAll(async () => {
      worker = await startWorker({ LOG_LEVEL: 'info' });
    });
    afterAll(() => worker.stop());

    it('takes a message from queued to sent and writes it as one structured log line', async () => {
      const accepted = (await send({ message: 'to the log' }).expect(202)).body;
      const stored = await waitForStatus(accepted.id, 'sent');
      expect(stored).toMatchObject({ attempts: 1, last_error: null, failed_at: null });
      expect(stored.sending_at).toBeInstanceOf(Date);
      expect(stored.sent_at).toBeInstanceOf(Date);
      const current = await suite.app.http.get(`/messages/${accepted.id}`).set(suite.account.auth).expect(200);
      expect(current.body).toEqual({
        ...accepted,
        status: 'sent',
        attempts: 1,
        sentAt: stored.sent_at!.toISOString(),
        lastError: null,
      });

      const logged = () => worker.logLines().find((line) => line.messageId === accepted.id);
      await waitFor(async () => logged() !== undefined, 5000, 'the log line');
      expect(logged()).toMatchObject({ msg: 'message sent', message: 'to the log', createdAt: accepted.createdAt });
    });

    it('exposes Prometheus metrics: jobs, delivery latency and queue depth', async () => {
      const metric = async (pattern: RegExp) =>
        Number(pattern.exec(await (await fetch(`${worker.baseUrl}/metrics`)).text())?.[1] ?? NaN);
      const completed = /^message_jobs_total\{result="completed"[^}]*\} (\d+)$/m;
      const delivered = /^message_delivery_seconds_count(?:\{[^}]*\})? (\d+)$/m;
      const before = { completed: (await metric(completed)) || 0, delivered: (await metric(delivered)) || 0 };

      const accepted = (await send({ message: 'measured' }).expect(202)).body;
      await waitForStatus(accepted.id, 'sent');
      // At least: a job left in the shared queue by an earlier suite may complete meanwhile.
      await waitFor(async () => (await metric(completed)) >= before.completed + 1, 5000, 'the job counter');
      expect(await metric(delivered)).toBeGreaterThanOrEqual(before.delivered + 1);
      expect(await metric(/^message_queue_jobs\{state="waiting"[^}]*\} (\d+)$/m)).toBeGreaterThanOrEqual(0);
      expect(await metric(/^process_resident_memory_bytes(?:\{[^}]*\})? (\d+)$/m)).toBeGreaterThan(0);
    });
  });
});
