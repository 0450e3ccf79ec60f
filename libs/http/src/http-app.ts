import { INestApplication, INestApplicationContext, NotFoundException, RequestMethod, Type } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';
import type { Server } from 'node:http';
import helmet from 'helmet';
import {
  AppLogger,
  collectProcessMetrics,
  CoreSettings,
  exitOnStartFailure,
  loadSettings,
  REQUEST_LOGGING,
} from '@app/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { PARSED_BODY_TYPES } from './json-body.guard';
import { MAX_BODY_BYTES, refuseDeclaredOversizedBody, StreamedBodyRoute } from './body-limits';
import { LimitedExpressAdapter } from './server-limits';
import { assertUtf8Body } from './utf8-body';
import { DrainState } from './health/health.controller';
import { httpMetrics } from './metrics/http-metrics';
import { HttpSettings } from './http.settings';
import { OpenApiSettings, PublicAddresses, publicAddresses } from './openapi/openapi.settings';

export interface HttpAppOptions {
  /** Names the process in metrics. */
  name?: string;
  /** Path prefix of the versioned routes (`v1` for the catalogue; none for messages). */
  globalPrefix?: string;
  /** Routes that stay outside the prefix besides health and metrics (path-to-regexp syntax). */
  unprefixedRoutes?: string[];
  /** Adds the OpenAPI document and Swagger UI, when the app serves them. */
  documentation?: (app: INestApplication, addresses: PublicAddresses) => void | Promise<void>;
  /** Browser origins allowed besides `CORS_ORIGINS`. */
  corsOrigins?: (addresses: PublicAddresses) => string[];
  /** Routes that read their body themselves, past the 64 KiB limit (each marked `@StreamsBody()`). */
  streamedBodyRoutes?: StreamedBodyRoute[];
  /**
   * Requests any page may make and read (the api's publishable keys): their answers carry CORS headers
   * for whatever origin sent them, the bearer guard deciding whether that origin is served, and reads
   * (`GET`, `HEAD`) are preflighted for every origin, since a preflight carries no key to decide by.
   */
  crossOriginReads?: (request: Request) => boolean;
}

/** Response headers a browser script may read (CORS): every one the service sends on purpose. */
const EXPOSED_HEADERS = [
  'Link',
  'Location',
  'Retry-After',
  'WWW-Authenticate',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Idempotent-Replayed',
  'Deprecation',
  'Sunset',
  'Allow',
  'ETag',
];
/** What a page of any origin may send with a read (`crossOriginReads`): its key and a revalidation. */
const CROSS_ORIGIN_READ_HEADERS = ['Authorization', 'If-None-Match'];
const CROSS_ORIGIN_READ_METHODS = ['GET', 'HEAD'];
/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** CORS for one request: the configured origins get everything; any other origin only `crossOriginReads`. */
function corsFor(request: Request, allowed: ReadonlySet<string>, reads: (request: Request) => boolean): CorsOptions {
  const origin = request.headers.origin;
  if (origin === undefined) return { origin: false };
  if (allowed.has(origin)) return { origin: true, exposedHeaders: EXPOSED_HEADERS };
  const requested = request.headers['access-control-request-method'];
  const preflight = request.method === 'OPTIONS' && requested !== undefined;
  if (preflight ? !CROSS_ORIGIN_READ_METHODS.includes(requested.toUpperCase()) : !reads(request)) {
    return { origin: false };
  }
  return {
    origin: true,
    methods: CROSS_ORIGIN_READ_METHODS,
    allowedHeaders: CROSS_ORIGIN_READ_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
  };
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/**
 * Everything an HTTP app needs beyond its module, up to and including `init()`; shared by `main.ts`
 * and the e2e tests.
 */
export async function configureHttpApp(app: NestExpressApplication, options: HttpAppOptions = {}): Promise<void> {
  const settings = app.get(HttpSettings);
  const logger = app.get(AppLogger);
  app.useLogger(logger);
  collectProcessMetrics(options.name ?? 'http');
  // First, so that requests the body parser refuses are logged as well.
  app.use(app.get<RequestHandler>(REQUEST_LOGGING));
  app.use(httpMetrics);
  app.set('trust proxy', parseTrustProxy(settings.TRUST_PROXY));
  app.disable('x-powered-by');
  // Express would hash every JSON body for a weak ETag that no client of this API revalidates with.
  app.set('etag', false);
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
  app.use(refuseDeclaredOversizedBody(options.streamedBodyRoutes));
  // Nest leaves `verify` out of the options' type, for its `rawBody` option, which these apps do not use.
  const json = { limit: MAX_BODY_BYTES, type: PARSED_BODY_TYPES, verify: assertUtf8Body };
  app.useBodyParser('json', json);
  const addresses = publicAddresses(app.get(OpenApiSettings), settings);
  const origins = [...settings.CORS_ORIGINS.split(','), ...(options.corsOrigins?.(addresses) ?? [])]
    .map((origin) => origin.trim())
    .filter(Boolean);
  const allowed = new Set(origins);
  const reads = options.crossOriginReads;
  if (reads) app.enableCors((request: Request, decide) => decide(null, corsFor(request, allowed, reads)));
  else if (allowed.size > 0) app.enableCors({ origin: [...allowed], exposedHeaders: EXPOSED_HEADERS });
  if (options.globalPrefix) {
    app.setGlobalPrefix(options.globalPrefix, {
      exclude: [
        { path: 'health/live', method: RequestMethod.GET },
        { path: 'health/ready', method: RequestMethod.GET },
        { path: 'metrics', method: RequestMethod.GET },
        ...(options.unprefixedRoutes ?? []).map((path) => ({ path, method: RequestMethod.ALL })),
      ],
    });
  }
  await options.documentation?.(app, addresses);
  // Building the documentation may create a silent preview app, which replaces Nest's process-wide
  // logger: attach ours again.
  app.useLogger(logger);
  await app.init();
  // Registered after Nest's routes: paths outside the global prefix, and anything that reaches
  // Express's own error handling, go through the same filter as every other error.
  const filter = app.get(AllExceptionsFilter);
  const host = (request: Request, response: Response) => new ExecutionContextHost([request, response]);
  app.use((request: Request, response: Response) => filter.catch(new NotFoundException(), host(request, response)));
  app.use((error: unknown, request: Request, response: Response, _next: NextFunction) =>
    filter.catch(error, host(request, response)),
  );
}

/**
 * Runs `prepare`, which checks every setting the app reads, waits for PostgreSQL and Redis and prepares the
 * database (the app's `prepareStart`: the HTTP layer knows no database), then starts an HTTP app on its
 * port. A start that fails ends the process with one line naming each bad setting or the dependency it
 * cannot reach.
 */
export async function bootstrapHttpApp(
  module: Type<unknown>,
  port: (settings: HttpSettings) => number,
  prepare: () => Promise<void>,
  options: HttpAppOptions = {},
): Promise<void> {
  try {
    await prepare();
    const settings = loadSettings(HttpSettings, process.env);
    const app = await NestFactory.create<NestExpressApplication>(module, new LimitedExpressAdapter(settings), {
      bufferLogs: true,
      bodyParser: false,
    });
    await configureHttpApp(app, options);
    stopGracefully(app);
    await app.listen(port(settings));
    // The one line of a start that says where to go: Nest's own wiring lines are at trace (AppLogger).
    app
      .get(AppLogger)
      .log(`${options.name ?? 'http'} listening on http://localhost:${port(settings)} (Swagger UI at /docs)`);
  } catch (error) {
    exitOnStartFailure(error);
  }
}

/**
 * On SIGTERM/SIGINT: runs `onSignal`, then closes the app (its shutdown hooks let in-flight work
 * finish, then close the pools) and exits; after SHUTDOWN_GRACE_MS the process exits anyway.
 */
export function closeOnSignals(app: INestApplicationContext, onSignal: (signal: NodeJS.Signals) => void): void {
  const graceMs = app.get(CoreSettings).SHUTDOWN_GRACE_MS;
  const logger = app.get(AppLogger);
  const stop = (signal: NodeJS.Signals) => {
    onSignal(signal);
    setTimeout(() => {
      logger.error(`still busy after ${graceMs} ms: exiting`);
      process.exit(1);
    }, graceMs).unref();
    app.close().then(
      () => process.exit(0),
      (error: Error) => {
        logger.error(`shutdown failed: ${error.message}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** Reports not-ready and stops accepting connections while in-flight requests finish. */
function stopGracefully(app: INestApplication): void {
  closeOnSignals(app, (signal) => {
    app.get(AppLogger).log(`${signal} received: draining`);
    app.get(DrainState).draining = true;
    // Connections that finish their request while draining would otherwise idle in keep-alive and
    // hold the server open until their timeout.
    const server = app.getHttpServer() as Server;
    setInterval(() => server.closeIdleConnections(), 100).unref();
  });
}
