import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { HealthModule } from './health/health.module';
import { MetricsController } from './metrics/metrics.controller';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { JsonBodyGuard } from './json-body.guard';
import { AppValidationPipe } from './validation.pipe';

/** What every HTTP app shares: the Error body for every failure, validation, JSON bodies, health, metrics. */
@Module({
  imports: [HealthModule],
  controllers: [MetricsController],
  providers: [
    AllExceptionsFilter,
    { provide: APP_FILTER, useExisting: AllExceptionsFilter },
    { provide: APP_PIPE, useClass: AppValidationPipe },
    JsonBodyGuard,
  ],
  exports: [HealthModule, JsonBodyGuard],
})
export class HttpCoreModule {}
