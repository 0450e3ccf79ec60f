import type { NextFunction, Request, Response } from 'express';
import { PayloadTooLargeError } from '@app/core';

/** Largest accepted request body (413 above it). */
export const MAX_BODY_BYTES = 64 * 1024;
export const MAX_BODY_SIZE = `${MAX_BODY_BYTES / 1024} KiB`;

/** A route that reads its own body as a stream, with its own limit (a photo upload): method and path. */
export interface StreamedBodyRoute {
  method: string;
  path: RegExp;
}

/**
 * Refuses a body whose declared length is over the limit before reading any of it, on every route but
 * those that stream their body (`streamed`): the JSON parser would first read the whole body, and discard
 * it. A chunked body declares no length, so the parser still reads it to its end (within
 * REQUEST_TIMEOUT_MS) before refusing it.
 */
export function refuseDeclaredOversizedBody(streamed: readonly StreamedBodyRoute[] = []) {
  return (request: Request, _response: Response, next: NextFunction): void => {
    const declared = Number(request.headers['content-length'] ?? 0);
    const oversized =
      declared > MAX_BODY_BYTES &&
      !streamed.some((route) => route.method === request.method && route.path.test(request.path));
    next(oversized ? new PayloadTooLargeError(MAX_BODY_SIZE) : undefined);
  };
}
