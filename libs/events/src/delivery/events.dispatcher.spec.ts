import type { Sql } from '@app/database';
import type { EventDto } from '../dto/event.dto';
import type { EventType } from '../event-types';
import type { DeliverEventJobData } from '../events.queue';
import type { EventsRepository } from '../events.repository';
import type { EventsSettings } from '../events.settings';
import type { WebhookEndpointsRepository } from '../webhooks/webhook-endpoints.repository';
import { DISPATCH_BATCH, EventsDispatcher } from './events.dispatcher';
import type { WebhookAttemptsRepository } from './webhook-attempts.repository';
import type { WebhookJobsProducer } from './webhook-jobs.producer';

const event = (id: string, type: EventType): EventDto => ({
  id,
  type,
  createdAt: '2026-06-01T00:00:00.000Z',
  data: { object: { text: 'private' } },
});

describe('EventsDispatcher', () => {
  it('gives each job its first attempt and its event, except a message’s, to the subscribed endpoints', async () => {
    const pet = event('evt_pet', 'pet.created');
    const message = event('evt_message', 'message.sent');
    const events = {
      claimUndispatched: jest.fn().mockResolvedValue([
        { accountId: 1, event: pet },
        { accountId: 1, event: message },
      ]),
    };
    const endpoints = {
      subscribers: jest.fn().mockResolvedValue([
        { id: 7, accountId: 1, eventTypes: ['*'] },
        { id: 8, accountId: 1, eventTypes: ['message.failed'] },
        { id: 9, accountId: 2, eventTypes: ['*'] },
      ]),
    };
    const attempts = {
      openFirstAttempts: jest.fn().mockResolvedValue([
        { attemptId: 41, eventId: 'evt_pet', endpointId: 7 },
        { attemptId: 42, eventId: 'evt_message', endpointId: 7 },
      ]),
    };
    const producer = { enqueue: jest.fn().mockResolvedValue(true) };
    const sql = { transaction: <T>(work: () => Promise<T>) => work() } satisfies Partial<Sql>;
    const dispatcher = new EventsDispatcher(
      sql as unknown as Sql,
      events as unknown as EventsRepository,
      endpoints as unknown as WebhookEndpointsRepository,
      attempts as unknown as WebhookAttemptsRepository,
      producer as unknown as WebhookJobsProducer,
      {} as EventsSettings,
    );

    await dispatcher.dispatchAll();
    expect(events.claimUndispatched).toHaveBeenCalledTimes(1);
    expect(attempts.openFirstAttempts.mock.calls).toEqual([
      [
        [
          { eventId: 'evt_pet', endpointId: 7, eventType: 'pet.created' },
          { eventId: 'evt_message', endpointId: 7, eventType: 'message.sent' },
        ],
      ],
    ]);
    expect(producer.enqueue.mock.calls).toEqual([
      [
        [
          { eventId: 'evt_pet', endpointId: 7, first: { attemptId: 41, event: pet } },
          { eventId: 'evt_message', endpointId: 7 },
        ],
      ],
    ]);
  });
});

describe('EventsDispatcher on a backlog', () => {
  /** A dispatcher whose first claim is a full batch, then `nextClaim`; its enqueues end when told. */
  function setUp(nextClaim: () => Promise<unknown[]>) {
    const full = Array.from({ length: DISPATCH_BATCH }, (_, i) => ({
      accountId: 1,
      event: event(`evt_${i}`, 'pet.created'),
    }));
    const events = {
      claimUndispatched: jest.fn().mockResolvedValueOnce(full).mockImplementationOnce(nextClaim),
    } satisfies Partial<EventsRepository>;
    const endpoints = {
      subscribers: jest.fn().mockResolvedValue([{ id: 7, accountId: 1, eventTypes: ['*'] }]),
    } satisfies Partial<WebhookEndpointsRepository>;
    const attempts = {
      openFirstAttempts: jest.fn(async (opened: Array<{ eventId: string; endpointId: number }>) =>
        opened.map((delivery, i) => ({ ...delivery, attemptId: i + 1 })),
      ),
    } satisfies Partial<WebhookAttemptsRepository>;
    const enqueues: Array<(taken: boolean) => void> = [];
    const producer = {
      enqueue: jest.fn((_jobs: DeliverEventJobData[]) => new Promise<boolean>((resolve) => enqueues.push(resolve))),
    } satisfies Partial<WebhookJobsProducer>;
    const dispatcher = new EventsDispatcher(
      { transaction: <T>(work: () => Promise<T>) => work() } satisfies Partial<Sql> as unknown as Sql,
      events as unknown as EventsRepository,
      endpoints as unknown as WebhookEndpointsRepository,
      attempts as unknown as WebhookAttemptsRepository,
      producer as unknown as WebhookJobsProducer,
      {} as EventsSettings,
    );
    const endEnqueues = () => enqueues.splice(0).forEach((resolve) => resolve(true));
    return { dispatcher, events, producer, endEnqueues };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('claims the next batch while the jobs of a full one go to Redis, and ends once every job is enqueued', async () => {
    const { dispatcher, events, producer, endEnqueues } = setUp(async () => []);
    let done = false;
    const dispatching = dispatcher.dispatchAll().then(() => (done = true));
    await settle();
    expect(producer.enqueue).toHaveBeenCalledTimes(1);
    expect(producer.enqueue.mock.calls[0]![0]).toHaveLength(DISPATCH_BATCH);
    expect(events.claimUndispatched).toHaveBeenCalledTimes(2);
    expect(done).toBe(false);
    endEnqueues();
    await dispatching;
  });

  it('fails when the next claim fails, once the jobs on their way to Redis have got there', async () => {
    const failure = new Error('Connection terminated unexpectedly');
    const { dispatcher, producer, endEnqueues } = setUp(() => Promise.reject(failure));
    let settled = false;
    const dispatching = dispatcher.dispatchAll().finally(() => (settled = true));
    dispatching.catch(() => undefined);
    await settle();
    expect(producer.enqueue).toHaveBeenCalledTimes(1);
    expect(settled).toBe(false);
    endEnqueues();
    await expect(dispatching).rejects.toBe(failure);
  });
});
