import { Module } from '@nestjs/common';
import { ClockModule } from './clock/clock';
import { AppConfigModule } from './config/config.module';
import { LoggingModule } from './logging/logging.module';
import { RedisModule } from './redis/redis.module';

/** Infrastructure every process needs: configuration, logs, Redis, the clock. PostgreSQL is `DatabaseModule`. */
@Module({
  imports: [AppConfigModule.forRoot(), LoggingModule, RedisModule, ClockModule],
})
export class CoreModule {}
