import { IntegerSetting } from '@app/core';
import { IsInt, Min } from 'class-validator';

export class IdempotencySettings {
  /** How often the worker deletes idempotency keys (and the responses kept with them) past their 24 hours. */
  @IntegerSetting()
  @IsInt()
  @Min(1000)
  IDEMPOTENCY_PURGE_INTERVAL_MS = 3600000;
}
