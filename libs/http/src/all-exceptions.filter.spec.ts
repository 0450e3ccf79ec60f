import { double } from '../../../test/support/doubles';
import { ArgumentsHost, BadRequestException, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import type { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AppError, UnauthorizedError } from '@app/core';
import { AllExceptionsFilter, toAppError } from './all-exceptions.filter';
import type { UnroutedRequestLimiter } from './unrouted-request-limiter';

const request = { method: 'GET', originalUrl: '/v1/x?y=1', path: '/v1/x' } satisfies Partial<Request> as Request;
const bodyParserError = (type: string) => Object.assign(new Error('parse'), { type, status: 400 });

describe('toAppError', () => {
  it('passes AppErrors through with their headers', () => {
    const error = toAppError(new UnauthorizedError(), request);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', headers: { 'WWW-Authenticate': 'Bearer' } });
  });

  it.each([
    ['entity.parse.failed', 400, 'invalid_json'],
    ['entity.too.large', 413, 'payload_too_large'],
    ['charset.unsupported', 400, 'unsupported_content_type'],
  ])('maps body-parser %s to %i %s', (type, status, code) => {
    expect(toAppError(bodyParserError(type), request)).toMatchObject({ status, code });
    expect(toAppError(new BadRequestException('x', { cause: bodyParserError(type) }), request)).toMatchObject({
      status,
      code,
    });
  });

  it('names the path of an unknown route', () => {
    expect(toAppError(new NotFoundException(), request)).toMatchObject({
      status: 404,
      code: 'not_found',
      message: 'No route matches GET /v1/x.',
    });
  });

  it('answers a failed readiness check with 503 naming the checks', () => {
    const error = toAppError(new ServiceUnavailableException({ status: 'error', error: { redis: {} } }), request);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', message: 'Not ready: redis unavailable.' });
    expect(error.headers['Retry-After']).toBeDefined();
  });

  it('answers an unreachable database with 503 and anything else with 500, without internals', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(toAppError(refused, request)).toMatchObject({ status: 503, code: 'service_unavailable' });
    const bug = toAppError(new TypeError('cannot read properties of undefined'), request);
    expect(bug).toMatchObject({ status: 500, code: 'internal_error' });
    expect(bug.message).not.toContain('undefined');
  });
});

describe('AllExceptionsFilter', () => {
  /** Catches `exception` for a request that no guard saw, with `limit` as the app's unrouted limiter. */
  async function answer(exception: unknown, limit: UnroutedRequestLimiter['limit'], asked: Partial<Request> = request) {
    const response = { headersSent: false, status: jest.fn(), setHeader: jest.fn(), json: jest.fn() };
    const http = {
      getRequest: jest.fn().mockReturnValue(asked),
      getResponse: jest.fn().mockReturnValue(response satisfies Partial<Response>),
      getNext: jest.fn(),
    } satisfies ReturnType<ArgumentsHost['switchToHttp']>;
    const host = { switchToHttp: () => http } satisfies Partial<ArgumentsHost>;
    const limiter = { limit } satisfies Partial<UnroutedRequestLimiter>;
    const moduleRef = { get: jest.fn().mockReturnValue(limiter) } satisfies Partial<ModuleRef>;
    const httpAdapter = {
      getInstance: jest.fn().mockReturnValue({ router: { stack: routes } }),
    } satisfies Partial<HttpAdapterHost['httpAdapter']>;
    await new AllExceptionsFilter(
      double<ModuleRef>(moduleRef),
      double<HttpAdapterHost>({ httpAdapter: double<HttpAdapterHost['httpAdapter']>(httpAdapter) }),
    ).catch(exception, double<ArgumentsHost>(host));
    return {
      status: response.status.mock.lastCall?.[0],
      body: response.json.mock.lastCall?.[0],
      headers: Object.fromEntries(response.setHeader.mock.calls),
    };
  }

  /** The app's route table: GET and POST on `/v1/pets`. */
  const routes = ['get', 'post'].map((method) => ({
    route: { methods: { [method]: true } },
    matchers: [(path: string) => path === '/v1/pets'],
  }));

  it('answers 405 with Allow for a path that only other methods serve', async () => {
    const sent = await answer(new NotFoundException(), async () => undefined, {
      method: 'DELETE',
      originalUrl: '/v1/pets?x=1',
    });
    expect(sent).toMatchObject({ status: 405, body: { code: 'method_not_allowed', status: 405 } });
    expect(sent.headers).toEqual({ Allow: 'GET, HEAD, POST' });
  });

  it('answers the error itself when the limiter lets the request through', async () => {
    const sent = await answer(new NotFoundException(), async () => undefined);
    expect(sent).toMatchObject({ status: 404, body: { code: 'not_found', status: 404 } });
  });

  it("answers the limiter's refusal instead of the error", async () => {
    const sent = await answer(new NotFoundException(), () =>
      Promise.reject(new AppError(429, 'rate_limited', 'Slow down.')),
    );
    expect(sent).toMatchObject({ status: 429, body: { code: 'rate_limited', status: 429 } });
  });

  it('answers 503 when a backing service keeps the limiter from deciding', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const sent = await answer(new NotFoundException(), () => Promise.reject(refused));
    expect(sent).toMatchObject({ status: 503, body: { code: 'service_unavailable', status: 503 } });
  });
});
