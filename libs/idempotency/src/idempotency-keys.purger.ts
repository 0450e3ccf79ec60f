import { Injectable, Logger } from '@nestjs/common';
import { PeriodicJob } from '@app/core';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotencySettings } from './idempotency.settings';

/** Rows per DELETE, so that a large backlog never holds many row locks in one statement. */
const BATCH = 1000;

/**
 * Deletes expired idempotency keys, with the responses stored under them, every
 * `IDEMPOTENCY_PURGE_INTERVAL_MS`: a periodic job, one run per tick across the workers.
 */
@Injectable()
export class IdempotencyKeysPurger extends PeriodicJob {
  readonly name = 'idempotency-keys-purge';
  private readonly logger = new Logger(IdempotencyKeysPurger.name);

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly settings: IdempotencySettings,
  ) {
    super();
  }

  everyMs(): number {
    return this.settings.IDEMPOTENCY_PURGE_INTERVAL_MS;
  }

  run(): Promise<void> {
    return this.purge();
  }

  async purge(): Promise<void> {
    let total = 0;
    let deleted: number;
    do {
      deleted = await this.keys.deleteExpired(BATCH);
      total += deleted;
    } while (deleted === BATCH && !this.stopped);
    if (total > 0) this.logger.log(`deleted ${total} expired idempotency keys`);
  }
}
