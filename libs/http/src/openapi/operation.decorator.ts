import { applyDecorators, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  type ApiBodyOptions,
  type ApiHeaderOptions,
  type ApiParamOptions,
  type ApiQueryOptions,
  type ApiResponseOptions,
  type HeadersObject,
  type RequestBodyObject,
} from '@nestjs/swagger';
import { ApiErrors, type ErrorCode } from './api-errors';
import { ApiHeadersOnEveryResponse, ApiRequestBody } from './openapi-decorators';

const ROUTES = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete };

/** An operation whole: its route, the status it answers, and its document. */
export interface OperationOptions {
  method: keyof typeof ROUTES;
  /** Relative to the controller's path; the controller's own when absent. */
  path?: string;
  /** The document's `operationId`. */
  id: string;
  summary: string;
  description?: string;
  deprecated?: boolean;
  /** Path parameters, query parameters and request headers, in the order the document lists them. */
  params?: readonly ApiParamOptions[];
  query?: readonly ApiQueryOptions[];
  headers?: readonly ApiHeaderOptions[];
  /** The request body, when the handler's `@Body()` type does not say it: by schema, or whole. */
  body?: ApiBodyOptions;
  consumes?: readonly string[];
  requestBody?: RequestBodyObject;
  /** The successful responses; the first one's status is what the handler answers unless it sets another. */
  success: ApiResponseOptions | readonly ApiResponseOptions[];
  /** Headers that every response carries, errors included. */
  everyResponseHeaders?: HeadersObject;
  /** The error codes, as `@ApiErrors` takes them. */
  errors: ReadonlyArray<number | ErrorCode | readonly ErrorCode[]>;
}

/**
 * One decorator per operation: Nest's route and `@HttpCode`, `@ApiOperation`, the parameters and
 * headers, the successful responses and the error responses. The access part (a scope, or public) is
 * the context's: `@Endpoint` of accounts adds it.
 */
export function Operation(operation: OperationOptions): MethodDecorator {
  const success = [operation.success].flat() as ApiResponseOptions[];
  const first = success[0].status;
  const status = typeof first === 'number' ? first : 200;
  // Written as they would be one per line, and applied as stacked decorators are: the last first.
  const decorators: MethodDecorator[] = [
    ROUTES[operation.method](operation.path),
    HttpCode(status),
    ApiOperation({
      operationId: operation.id,
      summary: operation.summary,
      description: operation.description,
      deprecated: operation.deprecated,
    }),
    ...(operation.consumes ? [ApiConsumes(...operation.consumes)] : []),
    ...(operation.body ? [ApiBody(operation.body)] : []),
    ...(operation.requestBody ? [ApiRequestBody(operation.requestBody)] : []),
    ...(operation.params ?? []).map((param) => ApiParam(param)),
    ...(operation.query ?? []).map((query) => ApiQuery(query)),
    ...(operation.headers ?? []).map((header) => ApiHeader(header)),
    ...success.map((response) => ApiResponse(response)),
    ...(operation.everyResponseHeaders ? [ApiHeadersOnEveryResponse(operation.everyResponseHeaders)] : []),
    ApiErrors(...operation.errors),
  ];
  return applyDecorators(...decorators.reverse());
}
