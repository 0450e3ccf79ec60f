import { PeriodicJob } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';
import { EventsRepository } from '../events.repository';
import { EventsSettings } from '../events.settings';

/** Rows deleted per statement: short transactions that hold few locks. */
const BATCH = 1000;

/**
 * Deletes events older than `EVENTS_RETENTION_DAYS` (30) whose delivery attempts are too, with those
 * attempts, every `EVENTS_RETENTION_INTERVAL_MS` (a periodic job: one run per tick
 * across the workers), in small batches.
 */
@Injectable()
export class EventsRetention extends PeriodicJob {
  readonly name = 'events-retention';
  private readonly logger = new Logger(EventsRetention.name);

  constructor(
    private readonly events: EventsRepository,
    private readonly settings: EventsSettings,
  ) {
    super();
  }

  everyMs(): number {
    return this.settings.EVENTS_RETENTION_INTERVAL_MS;
  }

  run(): Promise<void> {
    return this.purge();
  }

  async purge(): Promise<void> {
    const days = this.settings.EVENTS_RETENTION_DAYS;
    let events = 0;
    for (let deleted = BATCH; deleted === BATCH && !this.stopped; events += deleted)
      deleted = await this.events.deleteOlderThan(days, BATCH);
    if (events > 0) this.logger.log(`deleted ${events} events past retention, with their attempts`);
  }
}
