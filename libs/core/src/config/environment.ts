import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
  MinLength,
  ValidateIf,
  validateSync,
} from 'class-validator';

export enum AppEnv {
  Production = 'production',
  Staging = 'staging',
  Development = 'development',
}

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

const toBool = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const normalised = value.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(normalised)) return true;
  if (['false', '0', 'no'].includes(normalised)) return false;
  return value;
};

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Every setting the service reads, with its default. The process refuses to start when one is
 * invalid; nothing else in the code reads `process.env`.
 */
export class Environment {
  @IsEnum(AppEnv)
  APP_ENV: AppEnv = AppEnv.Development;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  MESSAGES_PORT = 3001;

  @IsUrl({ protocols: ['postgres', 'postgresql'], require_tld: false, require_host: true })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/pet_adoption';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(500)
  DATABASE_POOL_SIZE = 10;

  /** Create the database when it is missing and apply pending migrations on start. */
  @Transform(toBool)
  @IsBoolean()
  DATABASE_MIGRATE_ON_START = true;

  @IsUrl({ protocols: ['redis', 'rediss'], require_tld: false, require_host: true })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /** Upper bound for one Redis command on the request path, so a frozen Redis cannot hang requests. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(60000)
  REDIS_COMMAND_TIMEOUT_MS = 500;

  @IsOptional()
  @IsIn(LOG_LEVELS)
  LOG_LEVEL?: LogLevel;

  /** Express `trust proxy` setting: `false`, `true`, a hop count, or a list of addresses/subnets. */
  @IsString()
  TRUST_PROXY = 'false';

  /** How long a client may take to send its request headers, then its whole request (not less). */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  HEADERS_TIMEOUT_MS = 10000;

  @Transform(toInt)
  @IsInt()
  @Min(1000)
  REQUEST_TIMEOUT_MS = 30000;

  /** A connection that sends and receives nothing for this long is closed. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  IDLE_TIMEOUT_MS = 10000;

  /**
   * Connections one client address may hold open at once; the excess is answered 429 and closed.
   * Counted per TCP peer, so behind a proxy it bounds the proxy's connections. 0 disables it.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  MAX_CONNECTIONS_PER_CLIENT = 100;

  /** Base addresses published in the OpenAPI document. */
  @IsUrl({ require_tld: false })
  PUBLIC_BASE_URL_PRODUCTION = 'http://localhost:3000/v1';

  @IsUrl({ require_tld: false })
  PUBLIC_BASE_URL_STAGING = 'http://localhost:3000/v1';

  @IsUrl({ require_tld: false })
  PUBLIC_MESSAGES_URL = 'http://localhost:3001';

  /** How often the last-used time of API keys is written to PostgreSQL. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  API_KEY_LAST_USED_FLUSH_MS = 5000;

  /** How long a resolved API key is trusted without asking PostgreSQL again (revocation is pushed). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  API_KEY_CACHE_TTL_MS = 30000;

  /** Limit for requests without a valid key, per client IP address and minute window. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_ANONYMOUS_PER_MINUTE = 60;

  /** Sign-ups per client IP address and hour window. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_SIGNUP_PER_HOUR = 10;

  /** Rejected requests within one minute after which a key is banned. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_BAN_AFTER = 30;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_BAN_SECONDS = 600;

  /** Window lengths; shortened only by tests that need to cross a window. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_MINUTE_WINDOW_SECONDS = 60;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_DAY_WINDOW_SECONDS = 86400;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_SIGNUP_WINDOW_SECONDS = 3600;

  /** What the limiter does when Redis cannot answer: `open` admits (and logs), `closed` answers 503. */
  @IsIn(['open', 'closed'])
  RATE_LIMIT_ON_REDIS_FAILURE: 'open' | 'closed' = 'open';

  @IsIn(['log', 'webhook'])
  MESSAGES_TRANSPORT: 'log' | 'webhook' = 'log';

  @ValidateIf((env: Environment) => env.MESSAGES_TRANSPORT === 'webhook')
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  MESSAGES_WEBHOOK_URL?: string;

  @ValidateIf((env: Environment) => env.MESSAGES_TRANSPORT === 'webhook')
  @IsString()
  @MinLength(16)
  MESSAGES_WEBHOOK_SECRET?: string;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  MESSAGES_WEBHOOK_TIMEOUT_MS = 5000;

  /** Delivery attempts per message before it is marked failed. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  MESSAGES_MAX_ATTEMPTS = 5;

  /** First retry delay; each further retry doubles it. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MESSAGES_BACKOFF_MS = 1000;

  /** How often the worker re-enqueues stored messages that have no job (e.g. accepted while Redis was down). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  MESSAGES_RECONCILE_INTERVAL_MS = 10000;

  /** How often the worker deletes idempotency keys (and the responses kept with them) past their 24 hours. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  IDEMPOTENCY_PURGE_INTERVAL_MS = 3600000;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  WORKER_CONCURRENCY = 50;

  /**
   * How long a job stays claimed by a worker that stopped renewing its lock (e.g. was killed), and how
   * often workers look for such jobs to hand them to another worker.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  WORKER_LOCK_DURATION_MS = 30000;

  /** Port of the worker's /metrics and health endpoints. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  WORKER_METRICS_PORT = 9464;

  /** How long a stopping process waits for in-flight requests and jobs. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SHUTDOWN_GRACE_MS = 10000;

  /** Comma-separated allowed CORS origins; empty disables CORS. */
  @IsString()
  CORS_ORIGINS = '';

  /** Token for the queue dashboard at /admin/queues; the dashboard is off when unset. */
  @IsOptional()
  @IsString()
  @MinLength(16)
  ADMIN_TOKEN?: string;
}

export type EnvironmentKey = keyof Environment;

/** Validates raw environment variables; throws one readable error naming every bad setting. */
export function validateEnvironment(raw: Record<string, unknown>): Environment {
  const known = Object.keys(new Environment());
  const present = Object.fromEntries(Object.entries(raw).filter(([key, value]) => known.includes(key) && value !== ''));
  const environment = plainToInstance(Environment, present, { exposeDefaultValues: true });
  const errors = validateSync(environment, { skipMissingProperties: false });
  const lines = errors.map(
    (error) =>
      `  ${error.property}=${JSON.stringify(error.value)}: ${Object.values(error.constraints ?? {}).join('; ')}`,
  );
  if (errors.length === 0 && environment.REQUEST_TIMEOUT_MS < environment.HEADERS_TIMEOUT_MS) {
    lines.push(`  REQUEST_TIMEOUT_MS=${environment.REQUEST_TIMEOUT_MS}: must not be less than HEADERS_TIMEOUT_MS`);
  }
  if (lines.length > 0) throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  return environment;
}
