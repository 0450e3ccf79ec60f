import { PeriodicTask } from '@app/core';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { EventsRepository } from '../events.repository';
import { EventsSettings } from '../events.settings';

/** Rows deleted per statement: short transactions that hold few locks. */
const BATCH = 1000;

/**
 * Deletes events older than `EVENTS_RETENTION_DAYS` (30) whose delivery attempts are too, with those
 * attempts, every `EVENTS_RETENTION_INTERVAL_MS` in every worker, in small batches.
 */
@Injectable()
export class EventsRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EventsRetention.name);
  private readonly task = new PeriodicTask('retention', this.logger, () => this.purge());

  constructor(
    private readonly events: EventsRepository,
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
    for (let deleted = BATCH; deleted === BATCH && !this.task.stopped; events += deleted)
      deleted = await this.events.deleteOlderThan(days, BATCH);
    if (events > 0) this.logger.log(`deleted ${events} events past retention, with their attempts`);
  }
}
