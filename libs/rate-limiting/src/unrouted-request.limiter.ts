import { UnroutedRequestLimiter } from '@app/http';
import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RateLimitGuard } from './rate-limit.guard';

/**
 * Requests that fail before any guard runs (no route matched, the body could not be read) are
 * limited by the same guard, as if they had reached a route without metadata: counted against the
 * caller, with the same headers, and refused when over the limit.
 */
@Injectable()
export class UnroutedRateLimiter implements UnroutedRequestLimiter {
  constructor(private readonly guard: RateLimitGuard) {}

  async limit(request: Request, response: Response): Promise<void> {
    if (RateLimitGuard.hasDecided(request)) return;
    await this.guard.limit(request, response);
  }
}
