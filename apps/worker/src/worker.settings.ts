import { IntegerSetting } from '@app/core';
import { IsInt, Max, Min } from 'class-validator';

/** What only the worker app reads. */
export class WorkerSettings {
  /** Port of the worker's /metrics and health endpoints. */
  @IntegerSetting()
  @IsInt()
  @Min(0)
  @Max(65535)
  WORKER_METRICS_PORT = 9464;
}
