import type { Request, Response } from 'express';
import type { AppError } from '../errors';

/**
 * Injection token of the rate limiter for requests that fail before any guard runs (unknown routes,
 * unreadable or oversized bodies): they are counted and carry the rate-limit headers too. Provided
 * by the rate-limiting library; optional, so an app without it still answers errors.
 */
export const UNROUTED_REQUEST_LIMITER = Symbol('UNROUTED_REQUEST_LIMITER');

export interface UnroutedRequestLimiter {
  /** Counts the request unless a guard already did; returns the refusal to send instead, if any. */
  limit(request: Request, response: Response): Promise<AppError | undefined>;
}
