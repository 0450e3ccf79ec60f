import { ApiKeySettings } from './api-key.settings';
import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ApiKeysRepository } from './api-keys.repository';

/**
 * Keeps `api_keys.last_used_at` without a write per request: uses are collected in memory and
 * written in one statement every `API_KEY_LAST_USED_FLUSH_MS`, and once more at shutdown.
 */
@Injectable()
export class LastUsedRecorder implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(LastUsedRecorder.name);
  private pending = new Map<number, Date>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly settings: ApiKeySettings,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), this.settings.API_KEY_LAST_USED_FLUSH_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  record(keyId: number): void {
    this.pending.set(keyId, new Date());
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.keys.recordUses(batch);
    } catch (error) {
      // Keep the uses for the next flush rather than lose them.
      for (const [id, usedAt] of batch) if (!this.pending.has(id)) this.pending.set(id, usedAt);
      this.logger.warn(`could not record key use: ${(error as Error).message}`);
    }
  }
}
