import type { EventDto } from '../dto/event.dto';
import type { EventType } from '../event-types';
import { claimWhileSending, deliveriesOf, jobsOf } from './events.dispatcher';

const event = (id: string, type: EventType): EventDto => ({
  id,
  type,
  createdAt: '2026-06-01T00:00:00.000Z',
  data: { object: { text: 'private' } },
});

describe('deliveriesOf', () => {
  it('delivers each event to the endpoints of its recipient that subscribe to its type', () => {
    const claimed = [
      { accountId: 1, event: event('evt_pet', 'pet.created') },
      { accountId: 1, event: event('evt_message', 'message.sent') },
      { accountId: 3, event: event('evt_order', 'order.placed') },
    ];
    const subscribers = [
      { id: 7, accountId: 1, eventTypes: ['*'] },
      { id: 8, accountId: 1, eventTypes: ['message.failed'] },
      { id: 9, accountId: 2, eventTypes: ['*'] },
    ];
    expect(deliveriesOf(claimed, subscribers)).toEqual([
      { eventId: 'evt_pet', endpointId: 7, eventType: 'pet.created' },
      { eventId: 'evt_message', endpointId: 7, eventType: 'message.sent' },
    ]);
  });
});

describe('jobsOf', () => {
  it('gives each job its first attempt and its event, except a message’s, whose text stays out of Redis', () => {
    const pet = event('evt_pet', 'pet.created');
    const claimed = [
      { accountId: 1, event: pet },
      { accountId: 1, event: event('evt_message', 'message.sent') },
    ];
    const opened = [
      { attemptId: 41, eventId: 'evt_pet', endpointId: 7 },
      { attemptId: 42, eventId: 'evt_message', endpointId: 7 },
    ];
    expect(jobsOf(opened, claimed)).toEqual([
      { eventId: 'evt_pet', endpointId: 7, first: { attemptId: 41, event: pet } },
      { eventId: 'evt_message', endpointId: 7 },
    ]);
  });
});

describe('claimWhileSending', () => {
  /** Batches to claim in turn (a failure fails its claim), with sends that end when told; what happened, in order. */
  function pipeline(batches: Array<number | Error>) {
    const log: string[] = [];
    const sends: Array<() => void> = [];
    const claim = async () => {
      const batch = batches.shift()!;
      if (batch instanceof Error) throw batch;
      log.push(`claimed ${batch}`);
      return batch;
    };
    const send = (batch: number) =>
      new Promise<void>((resolve) => {
        log.push(`sending ${batch}`);
        sends.push(() => {
          log.push(`sent ${batch}`);
          resolve();
        });
      });
    const endSends = () => sends.splice(0).forEach((end) => end());
    return { claim, send, log, endSends };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const full = (batch: number) => batch === 10;

  it('claims the next batch while a full one is sent, and ends once every batch is sent', async () => {
    const { claim, send, log, endSends } = pipeline([10, 3]);
    let done = false;
    const running = claimWhileSending(claim, send, full).then(() => (done = true));
    await settle();
    expect(log).toEqual(['claimed 10', 'sending 10', 'claimed 3']);
    endSends();
    await settle();
    expect(done).toBe(false);
    endSends();
    await running;
    expect(log).toEqual(['claimed 10', 'sending 10', 'claimed 3', 'sent 10', 'sending 3', 'sent 3']);
  });

  it('fails when the next claim fails, once the batch on its way has been sent', async () => {
    const failure = new Error('Connection terminated unexpectedly');
    const { claim, send, log, endSends } = pipeline([10, failure]);
    let settled = false;
    const running = claimWhileSending(claim, send, full).finally(() => (settled = true));
    running.catch(() => undefined);
    await settle();
    expect(settled).toBe(false);
    endSends();
    await expect(running).rejects.toBe(failure);
    expect(log).toEqual(['claimed 10', 'sending 10', 'sent 10']);
  });

  it('claims once when the first batch is not full', async () => {
    const { claim, send, log, endSends } = pipeline([0, 10]);
    const running = claimWhileSending(claim, send, full);
    await settle();
    endSends();
    await running;
    expect(log).toEqual(['claimed 0', 'sending 0', 'sent 0']);
  });
});
