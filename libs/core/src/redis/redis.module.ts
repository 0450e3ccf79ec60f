import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { once } from 'node:events';
import { Cluster } from 'ioredis';
import type { ConnectionOptions } from 'bullmq';
import { CoreSettings } from '../config/core.settings';
import { createRedisClient, type RedisClient, workerConnection } from './redis-connection';

/** Injection token of the shared command connection, a `RedisClient`. */
export const REDIS = Symbol('REDIS');

/**
 * Injection token of what BullMQ workers and the periodic queue connect with (`workerConnection`): one
 * cluster client shared by them all on a cluster, closed here once the workers have closed.
 */
export const WORKER_REDIS = Symbol('WORKER_REDIS');

/**
 * Commands on the request path must fail fast rather than queue while Redis is away: no offline
 * queue, one retry, and a per-command timeout (a frozen Redis would otherwise hang requests).
 *
 * No auto-pipelining: callers batch what arrives together themselves (one rate-limit script call per
 * batch), and ioredis builds a `Pipeline` per tick for it whose own `length` accessor keeps it, its
 * commands and their replies alive through every young-generation collection until a full one.
 */
export function createRequestPathRedis(
  settings: Pick<CoreSettings, 'redis' | 'REDIS_COMMAND_TIMEOUT_MS'>,
  connectionName: string,
): RedisClient {
  const client = createRedisClient(settings.redis, {
    connectionName,
    commandTimeout: settings.REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  const logger = new Logger(`Redis:${connectionName}`);
  let reportedDown = false;
  client.on('error', (error) => {
    if (!reportedDown) logger.warn(`Redis unavailable: ${error.message}`);
    reportedDown = true;
  });
  client.on('ready', () => {
    if (reportedDown) logger.log('Redis connection restored');
    reportedDown = false;
  });
  return client;
}

/** How long startup, and a process's first publish, wait for a connection's first readiness (its connect timeout). */
const FIRST_CONNECTION_WAIT_MS = 2000;

/**
 * Settles once `redis` has first been ready, or after the connect timeout. Without an offline queue, a
 * command sent before then fails: an app that served its first requests that early would admit them
 * unlimited and queue no job, so apps wait for it before they listen.
 */
export function firstReadiness(redis: RedisClient): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return once(redis, 'ready', { signal: AbortSignal.timeout(FIRST_CONNECTION_WAIT_MS) }).then(
    () => undefined,
    () => undefined,
  );
}

type Handler = (message: string) => void;

/**
 * Cross-process notifications (e.g. "key revoked") over Redis pub/sub. Pub/sub is fire-and-forget,
 * so listeners are also told when the subscription (re)connects and may have missed messages.
 */
@Injectable()
export class RedisEvents implements OnApplicationShutdown {
  /**
   * Classic pub/sub: on a cluster, a message published on any node reaches the subscribers of every node, and
   * the cluster client moves its subscription to another node when its node fails.
   */
  private readonly subscriber: RedisClient;
  private readonly handlers = new Map<string, Handler[]>();
  private readonly reconnectHandlers: Array<() => void> = [];
  /**
   * Settles once the command connection has first been ready. Without an offline queue, a process
   * that publishes right after it starts (the operator CLI) would otherwise lose its message.
   */
  private readonly firstConnection: Promise<void>;

  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    settings: CoreSettings,
  ) {
    this.firstConnection = firstReadiness(redis);
    this.subscriber = createRequestPathRedis(settings, 'events');
    this.subscriber.on('message', (channel: string, message: string) => {
      for (const handler of this.handlers.get(channel) ?? []) handler(message);
    });
    this.subscriber.on('ready', () => {
      const channels = [...this.handlers.keys()];
      if (channels.length > 0) this.subscriber.subscribe(...channels).catch(() => undefined);
      for (const handler of this.reconnectHandlers) handler();
    });
  }

  on(channel: string, handler: Handler): void {
    const existing = this.handlers.get(channel);
    if (existing) existing.push(handler);
    else {
      this.handlers.set(channel, [handler]);
      if (this.subscriber.status === 'ready') this.subscriber.subscribe(channel).catch(() => undefined);
    }
  }

  /** Called after every (re)connection of the subscription, when messages may have been missed. */
  onReconnect(handler: () => void): void {
    this.reconnectHandlers.push(handler);
  }

  /** Whether published messages are being received right now. */
  get listening(): boolean {
    return this.subscriber.status === 'ready';
  }

  /** Fails fast during an outage; only a process's very first connection is waited for. */
  async publish(channel: string, message: string): Promise<void> {
    await this.firstConnection;
    await this.redis.publish(channel, message);
  }

  async onApplicationShutdown(): Promise<void> {
    this.subscriber.disconnect();
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [CoreSettings],
      useFactory: (settings: CoreSettings) => createRequestPathRedis(settings, 'commands'),
    },
    {
      provide: WORKER_REDIS,
      inject: [CoreSettings],
      useFactory: (settings: CoreSettings) => workerConnection(settings.redis),
    },
    RedisEvents,
  ],
  exports: [REDIS, WORKER_REDIS, RedisEvents],
})
export class RedisModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(WORKER_REDIS) private readonly workers: ConnectionOptions,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return firstReadiness(this.redis);
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis.disconnect();
    // Workers close before the application shuts down (`beforeApplicationShutdown`).
    if (this.workers instanceof Cluster) this.workers.disconnect();
  }
}
