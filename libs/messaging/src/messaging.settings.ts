import { IntegerSetting, UrlSetting } from '@app/core';
import { IsIn, IsInt, IsString, Max, Min, MinLength, ValidateIf } from 'class-validator';

/** Where messages go, how often delivery is tried, and how the worker runs delivery jobs. */
export class MessagingSettings {
  @IsIn(['log', 'webhook'])
  MESSAGES_TRANSPORT: 'log' | 'webhook' = 'log';

  @ValidateIf((settings: MessagingSettings) => settings.MESSAGES_TRANSPORT === 'webhook')
  @UrlSetting(['http', 'https'], 'https://messages.example/hook')
  MESSAGES_WEBHOOK_URL?: string;

  @ValidateIf((settings: MessagingSettings) => settings.MESSAGES_TRANSPORT === 'webhook')
  @IsString()
  @MinLength(16)
  MESSAGES_WEBHOOK_SECRET?: string;

  @IntegerSetting()
  @IsInt()
  @Min(100)
  MESSAGES_WEBHOOK_TIMEOUT_MS = 5000;

  /** Delivery attempts per message before it is marked failed. */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  @Max(100)
  MESSAGES_MAX_ATTEMPTS = 5;

  /** First retry delay; each further retry doubles it. */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  MESSAGES_BACKOFF_MS = 1000;

  /** How often the worker re-enqueues stored messages that have no job (e.g. accepted while Redis was down). */
  @IntegerSetting()
  @IsInt()
  @Min(100)
  MESSAGES_RECONCILE_INTERVAL_MS = 10000;

  /** Delivery jobs one worker process runs at once. */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  @Max(1000)
  WORKER_CONCURRENCY = 50;

  /**
   * How long a job stays claimed by a worker that stopped renewing its lock (e.g. was killed), and how
   * often workers look for such jobs to hand them to another worker.
   */
  @IntegerSetting()
  @IsInt()
  @Min(1000)
  WORKER_LOCK_DURATION_MS = 30000;
}
