import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { Request, Response } from 'express';
import {
  AppError,
  InternalError,
  InvalidJsonError,
  isTemporaryFailure,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  UnsupportedContentTypeError,
  ValidationFailedError,
} from '@app/core';
import { MAX_BODY_SIZE } from './body-limits';
import { MethodNotAllowedError, routedMethods } from './method-not-allowed';
import { UNROUTED_REQUEST_LIMITER, UnroutedRequestLimiter } from './unrouted-request-limiter';

const CODE_BY_STATUS: Record<number, string> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_content_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/** body-parser reports its failures with a `type`; map each to the contract's code. */
function fromBodyParser(error: unknown): AppError | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  switch (type) {
    case 'entity.parse.failed':
      return new InvalidJsonError();
    case 'entity.too.large':
      return new PayloadTooLargeError(MAX_BODY_SIZE);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new UnsupportedContentTypeError();
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new ValidationFailedError('The request body could not be read.');
    default:
      return undefined;
  }
}

function fromHttpException(exception: HttpException, request: Request): AppError {
  const status = exception.getStatus();
  if (status === HttpStatus.NOT_FOUND) {
    return new NotFoundError(`No route matches ${request.method} ${request.originalUrl.split('?')[0]}.`);
  }
  const response = exception.getResponse();
  const message =
    typeof response === 'string'
      ? response
      : typeof (response as { message?: unknown }).message === 'string'
        ? (response as { message: string }).message
        : exception.message;
  return new AppError(status, CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'bad_request'), message);
}

const logger = new Logger('ExceptionFilter');

/** Maps anything thrown while serving a request to the AppError it is answered with. */
export function toAppError(exception: unknown, request: Request): AppError {
  if (exception instanceof AppError) return exception;
  // Thrown in an Express middleware (the body parser's verify hook), it comes wrapped by Nest's adapter.
  const cause = (exception as { cause?: unknown } | null)?.cause;
  if (cause instanceof AppError) return cause;
  const bodyError = fromBodyParser(exception) ?? fromBodyParser(cause);
  if (bodyError) return bodyError;
  if (exception instanceof HttpException) {
    const mapped = fromHttpException(exception, request);
    if (mapped.status < 500) return mapped;
    // Terminus reports a failed readiness check this way, naming the failed checks under `error`.
    if (mapped.status === HttpStatus.SERVICE_UNAVAILABLE) {
      const failed = Object.keys((exception.getResponse() as { error?: object }).error ?? {});
      return new ServiceUnavailableError(`Not ready: ${failed.join(', ') || 'a dependency'} unavailable.`);
    }
  }
  const requestId = (request as { id?: unknown }).id;
  if (isTemporaryFailure(exception)) {
    logger.warn({ requestId, err: exception }, 'temporary failure');
    return new ServiceUnavailableError('A backing service is unavailable; retry shortly.');
  }
  logger.error({ requestId, err: exception }, 'unhandled error');
  return new InternalError();
}

/** Writes the contract's Error body, with the headers that belong to the error. */
function sendError(response: Response, error: AppError): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.status(error.status);
  for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
  response.json({
    code: error.code,
    message: error.message,
    status: error.status,
    ...(error.details ? { details: error.details } : {}),
  });
}

/**
 * The one place where anything thrown while serving a request becomes the contract's Error body.
 * Unknown failures are logged with the request id and answered without internals. A request that
 * failed before the guards ran is still rate limited (when the app has a limiter).
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private limiter?: UnroutedRequestLimiter | null;
  private allowedMethods?: (path: string) => string[];

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const context = host.switchToHttp();
    const request = context.getRequest<Request>();
    const response = context.getResponse<Response>();
    let answer = this.methodNotAllowed(exception, request) ?? toAppError(exception, request);
    try {
      await this.unroutedLimiter()?.limit(request, response);
    } catch (refusal) {
      // A rate-limit refusal, or the 503 of a backing service that kept the limiter from deciding.
      answer = toAppError(refusal, request);
    }
    sendError(response, answer);
  }

  /** No route for this method, but one for others on the same path (a 404 is for no route at all). */
  private methodNotAllowed(exception: unknown, request: Request): MethodNotAllowedError | undefined {
    if (!(exception instanceof NotFoundException)) return undefined;
    // Read once every route is registered: the first unrouted request comes after the app listens.
    this.allowedMethods ??= routedMethods(this.adapterHost.httpAdapter.getInstance());
    // The whole path: a handler mounted under the global prefix sees `request.path` without it.
    const allowed = this.allowedMethods(request.originalUrl.split('?')[0]!);
    return allowed.length > 0 && !allowed.includes(request.method) ? new MethodNotAllowedError(allowed) : undefined;
  }

  private unroutedLimiter(): UnroutedRequestLimiter | undefined {
    if (this.limiter === undefined) {
      try {
        this.limiter = this.moduleRef.get<UnroutedRequestLimiter>(UNROUTED_REQUEST_LIMITER, { strict: false });
      } catch {
        this.limiter = null;
      }
    }
    return this.limiter ?? undefined;
  }
}
