import type { NextFunction, Request, Response } from 'express';
import { PayloadTooLargeError } from '@app/core';

/** Largest accepted request body (CONTRACT section 5: 413 above it). */
export const MAX_BODY_BYTES = 64 * 1024;
export const MAX_BODY_SIZE = `${MAX_BODY_BYTES / 1024} KiB`;

/**
 * Refuses a body whose declared length is over the limit before reading any of it, on every route: the
 * JSON parser would first read the whole body, and discard it. A chunked body declares no length, so
 * the parser still reads it to its end (within REQUEST_TIMEOUT_MS) before refusing it.
 */
export function refuseDeclaredOversizedBody(request: Request, _response: Response, next: NextFunction): void {
  const declared = Number(request.headers['content-length'] ?? 0);
  next(declared > MAX_BODY_BYTES ? new PayloadTooLargeError(MAX_BODY_SIZE) : undefined);
}
