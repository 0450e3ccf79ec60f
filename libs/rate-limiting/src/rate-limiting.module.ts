import { AccountsModule } from '@app/accounts';
import { UNROUTED_REQUEST_LIMITER } from '@app/http';
import { settingsModule } from '@app/core';
import { Module } from '@nestjs/common';
import { RateLimitCallerResolver } from './rate-limit-caller.resolver';
import { RateLimitCounter } from './rate-limit.counter';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitPolicy } from './rate-limit.policy';
import { RateLimitSettings } from './rate-limit.settings';
import { RateLimitStore } from './rate-limit.store';
import { UnroutedRateLimiter } from './unrouted-request.limiter';

/**
 * Rate limits for an HTTP app. Register the guard as the app's first global guard, before the
 * bearer guard: `{ provide: APP_GUARD, useExisting: RateLimitGuard }`.
 */
@Module({
  imports: [AccountsModule, settingsModule(RateLimitSettings)],
  providers: [
    RateLimitStore,
    RateLimitPolicy,
    RateLimitCounter,
    RateLimitCallerResolver,
    RateLimitGuard,
    UnroutedRateLimiter,
    { provide: UNROUTED_REQUEST_LIMITER, useExisting: UnroutedRateLimiter },
  ],
  exports: [RateLimitGuard, UNROUTED_REQUEST_LIMITER],
})
export class RateLimitingModule {}
