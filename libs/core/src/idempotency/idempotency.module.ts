import { Global, Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository';

/**
 * Global: `@Idempotent()` routes live in the HTTP modules of several contexts, and Nest builds their
 * interceptor in each of those modules.
 */
@Global()
@Module({
  providers: [IdempotencyRepository],
  exports: [IdempotencyRepository],
})
export class IdempotencyModule {}
