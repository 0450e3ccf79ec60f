import { Controller, Get, Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../public.decorator';
import { SkipRateLimit } from '../skip-rate-limit.decorator';
import { REDIS, type RedisClient } from '@app/core';

const CHECK_TIMEOUT_MS = 1500;

/** Set when the process starts shutting down, so load balancers stop sending it traffic. */
@Injectable()
export class DrainState implements OnApplicationShutdown {
  draining = false;

  beforeApplicationShutdown(): void {
    this.draining = true;
  }

  onApplicationShutdown(): void {
    this.draining = true;
  }
}

@ApiExcludeController()
@Public()
@SkipRateLimit()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly postgres: TypeOrmHealthIndicator,
    private readonly drain: DrainState,
    @Inject(REDIS) private readonly redis: RedisClient,
  ) {}

  /** The process is up and its event loop turns. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** The process can serve: PostgreSQL and Redis answer, and it is not draining. */
  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([
      () =>
        this.drain.draining ? this.indicators.check('process').down('draining') : this.indicators.check('process').up(),
      () => this.postgres.pingCheck('postgres').withTimeout(CHECK_TIMEOUT_MS),
      () =>
        this.indicators
          .check('redis')
          .attempt(async () => {
            await this.redis.ping();
          })
          .withTimeout(CHECK_TIMEOUT_MS),
    ]);
  }
}
