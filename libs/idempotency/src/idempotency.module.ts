import { settingsModule } from '@app/core';
import { Global, Module } from '@nestjs/common';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotencyPersonalData } from './idempotency-personal-data.part';
import { IdempotencySettings } from './idempotency.settings';

/**
 * Global, so that every module whose routes are `@Idempotent()` can build the interceptor, and the
 * worker its purger. The index leaves the repository out: only the interceptor and the purger use it.
 */
@Global()
@Module({
  imports: [settingsModule(IdempotencySettings)],
  providers: [IdempotencyKeysRepository, IdempotencyPersonalData],
  exports: [IdempotencyKeysRepository, settingsModule(IdempotencySettings)],
})
export class IdempotencyModule {}
