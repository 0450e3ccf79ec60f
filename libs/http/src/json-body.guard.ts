import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { UnsupportedContentTypeError } from '@app/core';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const JSON_TYPE = 'application/json';
const MERGE_PATCH_TYPE = 'application/merge-patch+json';
const FORM_TYPE = 'application/x-www-form-urlencoded';
/** The media types the body parser reads; each route accepts JSON, and merge patches where it says so. */
export const PARSED_BODY_TYPES = [JSON_TYPE, MERGE_PATCH_TYPE];

const ACCEPTS_MERGE_PATCH = 'pet-adoption:accepts-merge-patch';

/** A route whose body may also be an RFC 7396 merge patch (`application/merge-patch+json`). */
export const AcceptsMergePatch = () => SetMetadata(ACCEPTS_MERGE_PATCH, true);

const ACCEPTS_FORM = 'pet-adoption:accepts-form';

/**
 * A route that also takes an HTML form's body (`application/x-www-form-urlencoded`), which it does not read:
 * the one-click unsubscribe that mailbox providers and the confirmation page send.
 */
export const AcceptsFormBody = () => SetMetadata(ACCEPTS_FORM, true);

export const STREAMS_BODY = 'pet-adoption:streams-body';

/**
 * A route that reads its body itself, as a stream, whatever its type (a photo upload): no body parser
 * reads it, and this guard leaves its type to the route. Listed in the app's `streamedBodyRoutes` too.
 */
export const StreamsBody = () => SetMetadata(STREAMS_BODY, true);

function hasBody(request: Request): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/**
 * Bodies must be JSON (anything else would otherwise reach validation as empty), or a merge patch or a form
 * on the routes that take one. Registered as the last global guard, so a request without a key is told about
 * the key first; a guard rather than an interceptor, so GETs pay for no observable pipeline.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (METHODS_WITH_BODY.has(request.method) && !this.reflector.get<boolean>(STREAMS_BODY, context.getHandler())) {
      const contentType = request.headers['content-type'];
      if (contentType === undefined ? hasBody(request) : !this.accepts(context, mediaType(contentType))) {
        throw new UnsupportedContentTypeError();
      }
    }
    return true;
  }

  private accepts(context: ExecutionContext, type: string): boolean {
    if (type === JSON_TYPE) return true;
    const marked = (key: string) => this.reflector.get<boolean>(key, context.getHandler()) === true;
    return (type === MERGE_PATCH_TYPE && marked(ACCEPTS_MERGE_PATCH)) || (type === FORM_TYPE && marked(ACCEPTS_FORM));
  }
}
