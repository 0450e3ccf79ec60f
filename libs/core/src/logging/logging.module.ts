import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { destination, stdSerializers } from 'pino';
import { pinoHttp, type HttpLogger, type Options } from 'pino-http';
import { AppEnv, CoreSettings, LogLevel } from '../config/core.settings';
import type { AuthenticatedRequest } from '../identity/principal';
import { AppLogger } from './app-logger';
import { RefusalLog } from './refusal-log';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const UNLOGGED_PATHS = ['/health/', '/metrics', '/docs'];

/** Accepts a caller's `X-Request-Id` when it is sane, otherwise makes one; echoes it back. */
function requestId(request: IncomingMessage, response: ServerResponse): string {
  const given = request.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  response.setHeader('X-Request-Id', id);
  return id;
}

function withRouteAndAccount(req: IncomingMessage, _res: ServerResponse, value: object): object {
  const request = req as IncomingMessage & {
    principal?: { accountId: number };
    route?: { path?: string };
    baseUrl?: string;
  };
  const route = request.route?.path;
  return {
    ...value,
    route: route ? `${request.baseUrl ?? ''}${route}` : undefined,
    accountId: request.principal?.accountId,
  };
}

/** Whose refusal a 429 was, as the rate limits counted it (IPv6 clients per /64). */
function callerOf(req: IncomingMessage): string {
  const request = req as AuthenticatedRequest;
  return request.rateLimitCaller ?? `ip:${request.ip}`;
}

function defaultLevel(env: AppEnv): LogLevel {
  return env === AppEnv.Development ? 'debug' : 'info';
}

/** The request-logging middleware, which `configureHttpApp` mounts ahead of every other one. */
export const REQUEST_LOGGING = Symbol('REQUEST_LOGGING');

function requestLogging(settings: CoreSettings, refusals: RefusalLog): HttpLogger {
  const options: Options = {
    level: settings.LOG_LEVEL ?? defaultLevel(settings.APP_ENV),
    genReqId: requestId,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    // Straight from the raw objects: pino-http would otherwise build its standard summaries of
    // both (headers included) on every request, only for these to pick two fields out of them.
    wrapSerializers: false,
    serializers: {
      req: (req: { method: string; originalUrl?: string; url: string }) => ({
        method: req.method,
        url: req.originalUrl ?? req.url,
      }),
      // A client that hung up before the answer: no status was sent, whatever statusCode defaults to.
      res: (res: { statusCode: number; headersSent: boolean }) => ({
        status: res.headersSent ? res.statusCode : null,
      }),
      err: stdSerializers.err,
    },
    // Added when the response is complete, so the matched route and the caller are known.
    customSuccessObject: withRouteAndAccount,
    customErrorObject: withRouteAndAccount,
    // Called once per finished response, so it is also where refusals are counted.
    customLogLevel: (req: IncomingMessage, res: ServerResponse, error?: Error) => {
      if (error || res.statusCode >= 500) return 'error';
      return res.statusCode === 429 && !refusals.record(callerOf(req)) ? 'silent' : 'info';
    },
    autoLogging: { ignore: (req: IncomingMessage) => UNLOGGED_PATHS.some((path) => req.url?.startsWith(path)) },
  };
  if (settings.APP_ENV === AppEnv.Development && process.stdout.isTTY) {
    return pinoHttp({ ...options, transport: { target: 'pino-pretty', options: { singleLine: true } } });
  }
  // Asynchronous writes: lines logged while a write is under way go out together in the next
  // one, instead of one blocking write per request. pino flushes what is left when the process exits.
  return pinoHttp(options, destination({ sync: false }));
}

@Module({
  providers: [RefusalLog, { provide: REQUEST_LOGGING, inject: [CoreSettings, RefusalLog], useFactory: requestLogging }],
  exports: [REQUEST_LOGGING],
})
class RequestLoggingModule {}

/**
 * Structured JSON logs, one line per request, except for a caller's repeated rate-limit refusals,
 * which are summarised (RefusalLog). Headers are never serialised, so neither the
 * `Authorization` header nor any key material can reach a log line.
 *
 * The request-logging middleware is mounted by `configureHttpApp` before the body parser, so that
 * requests it refuses (malformed JSON, oversized bodies) are logged too; nestjs-pino then only binds
 * each request's logger for the code that serves it, and logs everything else through the same pino.
 */
@Module({
  imports: [
    RequestLoggingModule,
    LoggerModule.forRootAsync({
      imports: [RequestLoggingModule],
      inject: [REQUEST_LOGGING],
      // Without wrapSerializers: false, the root logger nestjs-pino derives from ours would swap our
      // serializers for pino-http's standard ones, headers included.
      useFactory: (middleware: HttpLogger) => ({
        pinoHttp: { logger: middleware.logger, wrapSerializers: false },
        useExisting: true,
      }),
    }),
  ],
  providers: [AppLogger],
  exports: [AppLogger],
})
export class LoggingModule {}
