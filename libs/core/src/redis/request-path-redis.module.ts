import { DynamicModule, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CoreSettings } from '../config/core.settings';
import type { RedisClient } from './redis-connection';
import { createRequestPathRedis, firstReadiness } from './redis.module';

/**
 * A queue's connection for adding jobs, provided as `token`: a request-path one, which fails at once while
 * Redis is away instead of holding the caller (a reconciler adds the jobs later). Waited for at startup
 * like the command connection, and closed on shutdown:
 * BullMQ leaves a connection it was given open, and one it made itself reconnecting forever when Redis is
 * away at shutdown.
 */
@Module({})
export class RequestPathRedisModule {
  static provide(token: symbol, connectionName: string): DynamicModule {
    return {
      module: RequestPathRedisModule,
      providers: [
        {
          provide: token,
          inject: [CoreSettings],
          useFactory: (settings: CoreSettings) => createRequestPathRedis(settings, connectionName),
        },
        {
          provide: `${connectionName} lifecycle`,
          inject: [token],
          useFactory: (redis: RedisClient): OnApplicationBootstrap & OnApplicationShutdown => ({
            onApplicationBootstrap: () => firstReadiness(redis),
            onApplicationShutdown: () => redis.disconnect(),
          }),
        },
      ],
      exports: [token],
    };
  }
}
