import { AccountsModule } from '@app/accounts';
import { Environment, UNROUTED_REQUEST_LIMITER } from '@app/core';
import { Module } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitStore } from './rate-limit.store';
import { throttlerOptions } from './rate-limit.throttlers';
import { UnroutedRateLimiter } from './unrouted-request.limiter';

@Module({ providers: [RateLimitStore], exports: [RateLimitStore] })
class RateLimitStoreModule {}

/**
 * Rate limits for an HTTP app. Register the guard as the app's first global guard, before the
 * bearer guard: `{ provide: APP_GUARD, useExisting: RateLimitGuard }`.
 */
@Module({
  imports: [
    AccountsModule,
    RateLimitStoreModule,
    ThrottlerModule.forRootAsync({
      imports: [RateLimitStoreModule],
      inject: [Environment, Reflector, RateLimitStore],
      useFactory: throttlerOptions,
    }),
  ],
  providers: [
    RateLimitGuard,
    UnroutedRateLimiter,
    { provide: UNROUTED_REQUEST_LIMITER, useExisting: UnroutedRateLimiter },
  ],
  exports: [RateLimitGuard, UNROUTED_REQUEST_LIMITER],
})
export class RateLimitingModule {}
