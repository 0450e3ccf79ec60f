import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { UnsupportedContentTypeError } from '@app/core';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

function hasBody(request: Request): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

function isJson(contentType: string): boolean {
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * Bodies must be JSON (body-parser only parses `application/json`; anything else would otherwise reach
 * validation as empty). Registered as the last global guard, so a request without a key is told about
 * the key first; a guard rather than an interceptor, so GETs pay for no observable pipeline.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (METHODS_WITH_BODY.has(request.method)) {
      const contentType = request.headers['content-type'];
      if (contentType === undefined ? hasBody(request) : !isJson(contentType)) {
        throw new UnsupportedContentTypeError();
      }
    }
    return true;
  }
}
