import { IsEnum, IsIn, IsInt, IsOptional, IsUrl, Max, Min } from 'class-validator';
import { IntegerSetting } from './settings';

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

  @IsUrl({ protocols: ['redis', 'rediss'], require_tld: false, require_host: true })
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
}
