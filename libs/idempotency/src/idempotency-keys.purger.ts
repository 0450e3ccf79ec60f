import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PeriodicTask } from '@app/core';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotencySettings } from './idempotency.settings';

/** Rows per DELETE, so that a large backlog never holds many row locks in one statement. */
const BATCH = 1000;

/**
 * Deletes expired idempotency keys, with the responses stored under them, every
 * `IDEMPOTENCY_PURGE_INTERVAL_MS`. Run by the worker; several workers may purge at once.
 */
@Injectable()
export class IdempotencyKeysPurger implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IdempotencyKeysPurger.name);
  private readonly task = new PeriodicTask('purge', this.logger, () => this.purge());

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly settings: IdempotencySettings,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.settings.IDEMPOTENCY_PURGE_INTERVAL_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  async purge(): Promise<void> {
    let total = 0;
    let deleted: number;
    do {
      deleted = await this.keys.deleteExpired(BATCH);
      total += deleted;
    } while (deleted === BATCH && !this.task.stopped);
    if (total > 0) this.logger.log(`deleted ${total} expired idempotency keys`);
  }
}
