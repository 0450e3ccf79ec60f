import { IsEnum, IsIn, IsInt, IsOptional, Matches, Max, Min, ValidateIf } from 'class-validator';
import type { RedisTarget } from '../redis/redis-connection';
import { CrossFieldRules, IntegerSetting, UrlSetting } from './settings';

export enum AppEnv {
  Production = 'production',
  Staging = 'staging',
  Development = 'development',
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const HEAP_GROWTH_RULE = 'HEAP_GROWTH_PERCENT must be 0 (V8 decides) or from 10 to 300';

/**
 * What every process reads: where it runs, how much it logs, Redis, how long it waits to start and to stop,
 * and how far its heap grows.
 */
export class CoreSettings implements CrossFieldRules {
  @IsEnum(AppEnv)
  APP_ENV: AppEnv = AppEnv.Development;

  @IsOptional()
  @IsIn(LOG_LEVELS)
  LOG_LEVEL?: LogLevel;

  /** One Redis; `redis://127.0.0.1:6379` when neither this nor `REDIS_CLUSTER_NODES` is set. */
  @IsOptional()
  @UrlSetting(['redis', 'rediss'], DEFAULT_REDIS_URL)
  REDIS_URL?: string;

  /** A Redis Cluster instead, by some of its nodes (`host:port`, comma-separated): the rest are discovered. */
  @IsOptional()
  @Matches(/^[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*$/, {
    message: 'REDIS_CLUSTER_NODES must be host:port pairs separated by commas, such as 10.0.0.1:7001,10.0.0.2:7002',
  })
  REDIS_CLUSTER_NODES?: string;

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

  /**
   * How far the JavaScript heap's old generation may grow past what the last full collection kept, in per
   * cent, before the next one (ADR 0065): at 100 it grows to twice that. 0 leaves it to V8, which lets it
   * grow up to fourfold on a machine with memory to spare; below 10 it would collect almost all the time,
   * above 300 it would allow more than V8 ever does.
   */
  @IntegerSetting()
  @IsInt()
  @ValidateIf((settings: CoreSettings) => settings.HEAP_GROWTH_PERCENT !== 0)
  @Min(10, { message: HEAP_GROWTH_RULE })
  @Max(300, { message: HEAP_GROWTH_RULE })
  HEAP_GROWTH_PERCENT = 100;

  /** Where every connection of the process goes: the cluster when its nodes are set, else the one Redis. */
  get redis(): RedisTarget {
    if (!this.REDIS_CLUSTER_NODES) return { url: this.REDIS_URL ?? DEFAULT_REDIS_URL };
    return {
      clusterNodes: this.REDIS_CLUSTER_NODES.split(',').map((node) => {
        const [host, port] = node.split(':');
        return { host: host!, port: Number(port) };
      }),
    };
  }

  violations(): string[] {
    // Either address may be the one meant: neither is chosen over the other in silence.
    return this.REDIS_URL && this.REDIS_CLUSTER_NODES
      ? [
          'REDIS_URL and REDIS_CLUSTER_NODES are both set: set REDIS_URL for one Redis, or REDIS_CLUSTER_NODES for a cluster',
        ]
      : [];
  }
}
