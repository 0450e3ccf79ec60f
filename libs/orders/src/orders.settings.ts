import { IntegerSetting } from '@app/core';
import { IsInt, Max, Min } from 'class-validator';

/** The store's settings, read from the environment by `settingsProvider(OrdersSettings)`. */
export class OrdersSettings {
  /** How long a placed order holds its pet before the worker cancels it (`expired`). */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  ORDER_HOLD_SECONDS = 172_800;

  /**
   * How many orders one account may have `placed` (not yet decided) at once, leaving out those that approved
   * applications placed.
   */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  ORDERS_MAX_OPEN_PER_ACCOUNT = 3;

  /**
   * How often each worker cancels holds that ran out and whose delayed job was lost: a hold outlives
   * its `expiresAt` by at most this once a worker runs, so a hold is cancelled within 10 seconds of its expiry.
   */
  @IntegerSetting()
  @IsInt()
  @Min(100)
  @Max(10_000)
  ORDERS_EXPIRY_SWEEP_INTERVAL_MS = 5_000;
}
