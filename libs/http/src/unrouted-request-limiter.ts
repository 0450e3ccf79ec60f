import type { Request, Response } from 'express';

/**
 * Injection token of the rate limiter for requests that fail before any guard runs (unknown routes,
 * unreadable or oversized bodies): they are counted and carry the rate-limit headers too. Provided
 * by the rate-limiting library; optional, so an app without it still answers errors.
 */
export const UNROUTED_REQUEST_LIMITER = Symbol('UNROUTED_REQUEST_LIMITER');

export interface UnroutedRequestLimiter {
  /**
   * Counts the request unless a guard already did. Rejects with the refusal to send instead, or with
   * whatever kept it from deciding (a backing service down).
   */
  limit(request: Request, response: Response): Promise<void>;
}
