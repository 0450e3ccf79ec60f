import { PeriodicJob } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';
import { OrdersService } from '../orders.service';
import { OrdersSettings } from '../orders.settings';

const BATCH = 500;

/**
 * Cancels, every `ORDERS_EXPIRY_SWEEP_INTERVAL_MS` (a periodic job: one run per tick across the
 * workers), the placed orders whose hold ran out and whose delayed job did not (Redis wiped or away when
 * it was added, or no worker running then). Runs may overlap harmlessly: each expiry is a guarded UPDATE.
 */
@Injectable()
export class OrderExpirySweeper extends PeriodicJob {
  readonly name = 'orders-expiry-sweep';
  /** A worker that was down starts by cancelling the holds that ran out meanwhile. */
  override readonly runsAtStart = true;
  private readonly logger = new Logger(OrderExpirySweeper.name);

  constructor(
    private readonly orders: OrdersService,
    private readonly settings: OrdersSettings,
  ) {
    super();
  }

  everyMs(): number {
    return this.settings.ORDERS_EXPIRY_SWEEP_INTERVAL_MS;
  }

  run(): Promise<void> {
    return this.sweep();
  }

  async sweep(): Promise<void> {
    let ids: number[];
    do {
      ids = await this.orders.findExpired(BATCH);
      for (const id of ids) await this.orders.expire(id);
      if (ids.length > 0) this.logger.log(`cancelled ${ids.length} placed orders whose hold ran out`);
    } while (ids.length === BATCH && !this.stopped);
  }
}
