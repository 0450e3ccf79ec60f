import { IntegerSetting } from '@app/core';
import { IsInt, Max, Min } from 'class-validator';

/** Events and webhooks' settings, read with `settingsProvider(EventsSettings)`. */
export class EventsSettings {
  /** A delivery attempt that has not had a 2xx answer by then has failed. */
  @IntegerSetting()
  @IsInt()
  @Min(100)
  @Max(120_000)
  WEBHOOK_TIMEOUT_MS = 10_000;

  @IntegerSetting()
  @IsInt()
  @Min(1)
  @Max(50)
  WEBHOOK_MAX_ATTEMPTS = 8;

  /** The first retry's delay; each later one doubles it. */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  WEBHOOK_BACKOFF_MS = 5_000;

  /** Delivery attempts one worker runs at once. */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_WORKER_CONCURRENCY = 50;

  /** How long a worker holds a delivery job; a worker that dies mid-attempt gives it up after this. */
  @IntegerSetting()
  @IsInt()
  @Min(1000)
  WEBHOOK_LOCK_DURATION_MS = 30_000;

  /** How often a worker turns recorded events into deliveries. */
  @IntegerSetting()
  @IsInt()
  @Min(10)
  EVENTS_DISPATCH_INTERVAL_MS = 200;

  /**
   * How often a worker checks the attempts pending for longer than this: it enqueues again the deliveries
   * whose job Redis never had or lost, and settles those whose job ended without the outcome being written.
   */
  @IntegerSetting()
  @IsInt()
  @Min(100)
  EVENTS_RECONCILE_INTERVAL_MS = 10_000;

  /** How often a worker deletes the events older than EVENTS_RETENTION_DAYS whose attempts are that old and settled, with them. */
  @IntegerSetting()
  @IsInt()
  @Min(1000)
  EVENTS_RETENTION_INTERVAL_MS = 3_600_000;

  @IntegerSetting()
  @IsInt()
  @Min(1)
  EVENTS_RETENTION_DAYS = 30;
}
