import { Module } from '@nestjs/common';
import { ClockModule } from './clock/clock';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { LoggingModule } from './logging/logging.module';
import { RedisModule } from './redis/redis.module';

/**
 * Infrastructure every process needs: configuration, logs, PostgreSQL, Redis and the clock, and the
 * idempotency records that `@Idempotent()` routes of any context use.
 */
@Module({
  imports: [AppConfigModule.forRoot(), LoggingModule, DatabaseModule, IdempotencyModule, RedisModule, ClockModule],
})
export class CoreModule {}
