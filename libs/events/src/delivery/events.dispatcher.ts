import { PeriodicTask } from '@app/core';
import { Sql } from '@app/database';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { EventType, subscribes } from '../event-types';
import type { DeliverEventJobData } from '../events.queue';
import { EventsRepository } from '../events.repository';
import { EventsSettings } from '../events.settings';
import { WebhookEndpointsRepository } from '../webhooks/webhook-endpoints.repository';
import { WebhookAttemptsRepository } from './webhook-attempts.repository';
import { WebhookJobsProducer } from './webhook-jobs.producer';

const BATCH = 500;

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
  private readonly task = new PeriodicTask('dispatch', this.logger, () => this.dispatchAll());

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

  async dispatchAll(): Promise<void> {
    let claimed: number;
    do claimed = await this.dispatch();
    while (claimed === BATCH && !this.task.stopped);
  }

  /** Dispatches one batch of events; how many there were. */
  async dispatch(): Promise<number> {
    const { claimed, jobs } = await this.sql.transaction(async () => {
      const claimed = await this.events.claimUndispatched(BATCH);
      if (claimed.length === 0) return { claimed: 0, jobs: [] };
      const subscribers = await this.endpoints.subscribers([...new Set(claimed.map(({ accountId }) => accountId))]);
      const deliveries = claimed.flatMap(({ accountId, event }) =>
        subscribers
          .filter((endpoint) => endpoint.accountId === accountId && subscribes(endpoint.eventTypes, event.type))
          .map((endpoint) => ({ eventId: event.id, endpointId: endpoint.id, eventType: event.type })),
      );
      const opened = await this.attempts.openFirstAttempts(deliveries);
      const events = new Map(claimed.map(({ event }) => [event.id, event]));
      // Each job carries its first attempt and the event, so that its first run reads neither; a message's
      // text stays out of Redis, as the messages' own jobs keep it.
      const jobs: DeliverEventJobData[] = opened.map(({ attemptId, eventId, endpointId }) => {
        const event = events.get(eventId)!;
        return { eventId, endpointId, ...(carried(event.type) && { first: { attemptId, event } }) };
      });
      return { claimed: claimed.length, jobs };
    });
    if (jobs.length > 0) await this.producer.enqueue(jobs);
    return claimed;
  }
}
