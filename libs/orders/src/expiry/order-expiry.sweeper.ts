import { PeriodicTask } from '@app/core';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { OrdersService } from '../orders.service';
import { OrdersSettings } from '../orders.settings';

const BATCH = 500;

/**
 * Cancels, every `ORDERS_EXPIRY_SWEEP_INTERVAL_MS` and at once when the worker starts, the placed
 * orders whose hold ran out and whose delayed job did not (Redis wiped or away when it was added, or
 * no worker running then). Every worker runs one; they may overlap, since each expiry is a guarded UPDATE.
 */
@Injectable()
export class OrderExpirySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OrderExpirySweeper.name);
  private readonly task = new PeriodicTask('hold expiry sweep', this.logger, () => this.sweep());

  constructor(
    private readonly orders: OrdersService,
    private readonly settings: OrdersSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.settings.ORDERS_EXPIRY_SWEEP_INTERVAL_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  async sweep(): Promise<void> {
    let ids: number[];
    do {
      ids = await this.orders.findExpired(BATCH);
      for (const id of ids) await this.orders.expire(id);
      if (ids.length > 0) this.logger.log(`cancelled ${ids.length} placed orders whose hold ran out`);
    } while (ids.length === BATCH && !this.task.stopped);
  }
}
