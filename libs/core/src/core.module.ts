import { Module } from '@nestjs/common';
import { ClockModule } from './clock/clock';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { LoggingModule } from './logging/logging.module';
import { RedisModule } from './redis/redis.module';

/** Infrastructure every process needs: configuration, logs, PostgreSQL, Redis, the clock. */
@Module({
  imports: [AppConfigModule.forRoot(), LoggingModule, DatabaseModule, RedisModule, ClockModule],
})
export class CoreModule {}
