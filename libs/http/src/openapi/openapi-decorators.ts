import { ApiExtension } from '@nestjs/swagger';
import type { HeadersObject, RequestBodyObject } from '@nestjs/swagger';
import {
  EVERY_RESPONSE_HEADERS_EXTENSION,
  REQUEST_BODY_EXTENSION,
  SUCCESS_HEADERS_EXTENSION,
} from './openapi-document';

/** Documents headers that every response of the operation carries, errors included. */
export const ApiHeadersOnEveryResponse = (headers: HeadersObject) =>
  ApiExtension(EVERY_RESPONSE_HEADERS_EXTENSION, headers);

/** Documents headers that every successful response of the operation may carry. */
export const ApiHeadersOnSuccess = (headers: HeadersObject) => ApiExtension(SUCCESS_HEADERS_EXTENSION, headers);

/** Documents the operation's request body whole: a schema per media type (a file as multipart or as itself). */
export const ApiRequestBody = (body: RequestBodyObject) => ApiExtension(REQUEST_BODY_EXTENSION, body);
