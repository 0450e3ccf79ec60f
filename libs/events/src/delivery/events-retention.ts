import { PeriodicTask } from '@app/core';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { EventsRepository } from '../events.repository';
import { EventsSettings } from '../events.settings';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/** Rows deleted per statement: short transactions that hold few locks. */
const BATCH = 1000;

/**
 * Deletes events (with their deliveries) and delivery attempts older than `EVENTS_RETENTION_DAYS`
 * (30), every `EVENTS_RETENTION_INTERVAL_MS` in every worker, in small batches.
 */
@Injectable()
export class EventsRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EventsRetention.name);
  private readonly task = new PeriodicTask('retention', this.logger, () => this.purge());

  constructor(
    private readonly events: EventsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly settings: EventsSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.settings.EVENTS_RETENTION_INTERVAL_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  async purge(): Promise<void> {
    const days = this.settings.EVENTS_RETENTION_DAYS;
    let events = 0;
    let attempts = 0;
    for (let deleted = BATCH; deleted === BATCH && !this.task.stopped; events += deleted)
      deleted = await this.events.deleteOlderThan(days, BATCH);
    for (let deleted = BATCH; deleted === BATCH && !this.task.stopped; attempts += deleted)
      deleted = await this.deliveries.deleteAttemptsOlderThan(days, BATCH);
    if (events + attempts > 0) this.logger.log(`deleted ${events} events and ${attempts} attempts past retention`);
  }
}
