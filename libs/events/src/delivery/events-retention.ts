import { PeriodicJob } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';
import { EventsRepository } from '../events.repository';
import { EventsSettings } from '../events.settings';

/** Rows deleted per statement: short transactions that hold few locks. */
const BATCH = 1000;

/**
 * Deletes events older than `EVENTS_RETENTION_DAYS` (30) whose delivery attempts are too, with those
 * attempts, and the saved-search alerts stored apart that are as old, every `EVENTS_RETENTION_INTERVAL_MS`
 * (a periodic job: one run per tick across the workers), in small batches.
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
    const events = await this.inBatches((limit) => this.events.deleteOlderThan(days, limit));
    if (events > 0) this.logger.log(`deleted ${events} events past retention, with their attempts`);
    const alerts = await this.inBatches((limit) => this.events.deleteAlertsOlderThan(days, limit));
    if (alerts > 0) this.logger.log(`deleted ${alerts} saved-search alerts past retention`);
  }

  /** Runs `deleteBatch` until a batch deletes fewer than BATCH rows, or the job stops: how many in all. */
  private async inBatches(deleteBatch: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    let deleted: number;
    do {
      deleted = await deleteBatch(BATCH);
      total += deleted;
    } while (deleted === BATCH && !this.stopped);
    return total;
  }
}
