import { IsEnum, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IntegerSetting, UrlSetting } from './settings';

export enum AppEnv {
  Production = 'production',
  Staging = 'staging',
  Development = 'development',
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What every process reads: where it runs, how much it logs, Redis, and how long it takes to stop. */
export class CoreSettings {
  @IsEnum(AppEnv)
  APP_ENV: AppEnv = AppEnv.Development;

  @IsOptional()
  @IsIn(LOG_LEVELS)
  LOG_LEVEL?: LogLevel;

  @UrlSetting(['redis', 'rediss'], 'redis://127.0.0.1:6379')
  REDIS_URL = 'redis://127.0.0.1:6379';

  /** Upper bound for one Redis command on the request path, so a frozen Redis cannot hang requests. */
  @IntegerSetting()
  @IsInt()
  @Min(10)
  @Max(60000)
  REDIS_COMMAND_TIMEOUT_MS = 500;

  /** How long a stopping process waits for in-flight requests and jobs. */
  @IntegerSetting()
  @IsInt()
  @Min(0)
  SHUTDOWN_GRACE_MS = 10000;

  /**
   * How long a starting process waits for PostgreSQL and Redis to answer (both may be starting beside it)
   * before it exits, naming the one it could not reach.
   */
  @IntegerSetting()
  @IsInt()
  @Min(0)
  @Max(600000)
  STARTUP_WAIT_MS = 10000;
}
