import { settingsModule } from '@app/core';
import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { HealthModule } from './health/health.module';
import { MetricsController } from './metrics/metrics.controller';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { JsonBodyGuard } from './json-body.guard';
import { OpenApiSettings } from './openapi/openapi.settings';
import { AppValidationPipe } from './validation.pipe';
import { HttpSettings } from './http.settings';

/** What every HTTP app shares: its settings, the Error body for every failure, validation, JSON bodies, health, metrics. */
@Module({
  imports: [HealthModule, settingsModule(HttpSettings), settingsModule(OpenApiSettings)],
  controllers: [MetricsController],
  providers: [
    AllExceptionsFilter,
    { provide: APP_FILTER, useExisting: AllExceptionsFilter },
    { provide: APP_PIPE, useClass: AppValidationPipe },
    JsonBodyGuard,
  ],
  exports: [HealthModule, JsonBodyGuard, settingsModule(HttpSettings), settingsModule(OpenApiSettings)],
})
export class HttpCoreModule {}
