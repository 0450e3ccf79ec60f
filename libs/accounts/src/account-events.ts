import { RedisEvents } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';

/** Redis pub/sub channel on which every process learns that cached key lookups are stale. */
const CHANNEL = 'pet-adoption:accounts:changed';

export type AccountEvent = { type: 'key-revoked'; keyId: number } | { type: 'account-changed'; accountId: number };

@Injectable()
export class AccountEvents {
  private readonly logger = new Logger(AccountEvents.name);
  private readonly handlers: Array<(event: AccountEvent) => void> = [];

  constructor(private readonly redisEvents: RedisEvents) {}

  /** Applies the change in this process at once (the caller's next request sees it), then tells the others. */
  async announce(event: AccountEvent): Promise<void> {
    for (const handler of this.handlers) handler(event);
    await this.redisEvents.publish(CHANNEL, JSON.stringify(event)).catch((error: Error) => {
      // A process whose subscription is down bypasses its cache, so the change still applies there.
      this.logger.warn(`could not announce ${event.type}: ${error.message}`);
    });
  }

  /** The handler also hears this process's own events again from Redis: it must be idempotent. */
  subscribe(handler: (event: AccountEvent) => void): void {
    this.handlers.push(handler);
    this.redisEvents.on(CHANNEL, (message) => handler(JSON.parse(message) as AccountEvent));
  }
}
