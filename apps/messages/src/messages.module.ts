import { AccountsModule, ApiKeyGuard } from '@app/accounts';
import { CoreModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { HttpCoreModule, JsonBodyGuard } from '@app/http';
import { IdempotencyModule } from '@app/idempotency';
import { MessagesHttpModule } from '@app/messaging';
import { RateLimitGuard, RateLimitingModule } from '@app/rate-limiting';
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';

/** The message-sending app: `/messages` on its own base address (no `/v1`), Swagger UI, health. */
@Module({
  imports: [
    CoreModule,
    DatabaseModule.forRoot(),
    IdempotencyModule,
    HttpCoreModule,
    AccountsModule,
    RateLimitingModule,
    MessagesHttpModule,
  ],
  // Guards run in the order listed: limits first, so a 401 is counted and carries the headers too.
  providers: [
    { provide: APP_GUARD, useExisting: RateLimitGuard },
    { provide: APP_GUARD, useExisting: ApiKeyGuard },
    { provide: APP_GUARD, useExisting: JsonBodyGuard },
  ],
})
export class MessagesModule {}
