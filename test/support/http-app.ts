import { ENVIRONMENT_VARIABLES } from '@app/core';
import { HttpAppOptions, configureHttpApp } from '@app/http';
import type { Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import type { OpenApiTraffic } from './openapi-traffic';
import { replicaSettings } from './test-env';

export interface TestAppOverrides {
  /** Settings on top of the test environment (e.g. short rate-limit windows). */
  env?: Record<string, string>;
  /** Providers to replace, e.g. the Clock. */
  providers?: Array<{ provide: unknown; useValue: unknown }>;
  /** Checks every exchange against the app's committed OpenAPI document. */
  traffic?: OpenApiTraffic;
}

export interface TestHttpApp {
  app: NestExpressApplication;
  http: TestAgent;
  close: () => Promise<void>;
}

/** Boots a real app module against the test PostgreSQL and Redis, configured as in production. */
export async function createTestHttpApp(
  module: Type<unknown>,
  options: HttpAppOptions,
  overrides: TestAppOverrides = {},
): Promise<TestHttpApp> {
  // Every context reads its settings from these variables; a suite's own database has its replica too.
  // A generous Redis timeout: on a loaded machine a limiter call past the default 500 ms is admitted by the
  // fail-open policy without its headers, which most suites assert. Suites testing the timeout set their own.
  const suiteDatabase = overrides.env?.DATABASE_URL;
  let builder = Test.createTestingModule({ imports: [module] })
    .overrideProvider(ENVIRONMENT_VARIABLES)
    .useValue({
      ...process.env,
      REDIS_COMMAND_TIMEOUT_MS: '5000',
      ...(suiteDatabase && replicaSettings(suiteDatabase)),
      ...overrides.env,
    });
  for (const provider of overrides.providers ?? []) {
    builder = builder.overrideProvider(provider.provide).useValue(provider.useValue);
  }
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, bufferLogs: true });
  if (overrides.traffic) app.use(overrides.traffic.middleware);
  await configureHttpApp(app, options);
  const server = app.getHttpServer();
  return { app, http: request(server), close: () => app.close() };
}
