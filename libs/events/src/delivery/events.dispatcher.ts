import { ContinuousPoller } from '@app/core';
import { Sql } from '@app/database';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { EventType, subscribes } from '../event-types';
import type { DeliverEventJobData } from '../events.queue';
import { EventsRepository, type UndispatchedEvent } from '../events.repository';
import { EventsSettings } from '../events.settings';
import { type Subscriber, WebhookEndpointsRepository } from '../webhooks/webhook-endpoints.repository';
import { type AttemptKey, WebhookAttemptsRepository } from './webhook-attempts.repository';
import { WebhookJobsProducer } from './webhook-jobs.producer';

/**
 * Events claimed per transaction: a larger batch costs less per event, and holds its events' locks for its
 * claim's length.
 */
const DISPATCH_BATCH = 1000;

/** A batch of claimed events, and the jobs of their deliveries. */
interface DispatchedBatch {
  claimed: number;
  jobs: DeliverEventJobData[];
}

/** A delivery whose first attempt is to be opened. */
type FirstDelivery = DeliverEventJobData & { eventType: EventType };

/** Events a delivery job may carry: all but messages', whose object holds the message's text. */
const carried = (type: EventType) => !type.startsWith('message.');

/**
 * The outbox's reader, every `EVENTS_DISPATCH_INTERVAL_MS` in every worker: claims recorded events no
 * dispatcher has handled, opens the first attempt of one delivery per subscribed enabled endpoint in the
 * same transaction that marks them dispatched, then enqueues their jobs. Dispatchers running together
 * skip each other's events; deliveries whose jobs did not reach Redis are the reconciler's.
 */
@Injectable()
export class EventsDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EventsDispatcher.name);
  private readonly task = new ContinuousPoller('dispatch', this.logger, () => this.dispatchAll());

  constructor(
    private readonly sql: Sql,
    private readonly events: EventsRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly attempts: WebhookAttemptsRepository,
    private readonly producer: WebhookJobsProducer,
    private readonly settings: EventsSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.settings.EVENTS_DISPATCH_INTERVAL_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  /**
   * Dispatches batches until none is full. A batch's jobs go to Redis while the next batch is claimed: the
   * claim waits for PostgreSQL and the enqueue for Redis, and one after the other they would bound how
   * fast any number of deliveries can start.
   */
  dispatchAll(): Promise<void> {
    return claimWhileSending(
      () => this.claimBatch(),
      (batch) => this.enqueue(batch),
      (batch) => batch.claimed === DISPATCH_BATCH && !this.task.stopped,
    );
  }

  /** Claims a batch of events and opens the first attempt of each of their deliveries, in one transaction. */
  private claimBatch(): Promise<DispatchedBatch> {
    return this.sql.transaction(async () => {
      const claimed = await this.events.claimUndispatched(DISPATCH_BATCH);
      if (claimed.length === 0) return { claimed: 0, jobs: [] };
      const subscribers = await this.endpoints.subscribers([...new Set(claimed.map(({ accountId }) => accountId))]);
      const opened = await this.attempts.openFirstAttempts(deliveriesOf(claimed, subscribers));
      return { claimed: claimed.length, jobs: jobsOf(opened, claimed) };
    });
  }

  /** What Redis does not take, the reconciler enqueues again. */
  private async enqueue({ jobs }: DispatchedBatch): Promise<void> {
    if (jobs.length > 0) await this.producer.enqueue(jobs);
  }
}

/**
 * Claims batches until `more` says no more of a batch, sending each while the next is claimed. Ends once
 * every send has; a failed claim or send fails it, once the send under way has ended.
 */
export async function claimWhileSending<B>(
  claim: () => Promise<B>,
  send: (batch: B) => Promise<void>,
  more: (batch: B) => boolean,
): Promise<void> {
  let sending: Promise<void> = Promise.resolve();
  try {
    let batch: B;
    do {
      batch = await claim();
      await sending;
      sending = send(batch);
    } while (more(batch));
  } finally {
    await sending;
  }
}

/** One delivery of each claimed event to each enabled endpoint of its recipient that subscribes to its type. */
export function deliveriesOf(claimed: UndispatchedEvent[], subscribers: Subscriber[]): FirstDelivery[] {
  return claimed.flatMap(({ accountId, event }) =>
    subscribers
      .filter((endpoint) => endpoint.accountId === accountId && subscribes(endpoint.eventTypes, event.type))
      .map((endpoint) => ({ eventId: event.id, endpointId: endpoint.id, eventType: event.type })),
  );
}

/**
 * The jobs of the deliveries whose first attempts were opened. Each carries its first attempt and the
 * event, so that its first run reads neither; a message's text stays out of Redis, as the messages' own
 * jobs keep it.
 */
export function jobsOf(opened: AttemptKey[], claimed: UndispatchedEvent[]): DeliverEventJobData[] {
  const events = new Map(claimed.map(({ event }) => [event.id, event]));
  return opened.map(({ attemptId, eventId, endpointId }) => {
    const event = events.get(eventId)!;
    return { eventId, endpointId, ...(carried(event.type) && { first: { attemptId, event } }) };
  });
}
