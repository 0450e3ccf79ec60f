import { randomInt } from 'node:crypto';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { AppProcess, startServing, waitFor } from '../support/processes';
import { windowWithRoom } from '../support/rate-limiting';

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

describe('observability and graceful operation (real api process)', () => {
  let api: AppProcess;
  let base: string;
  let key: string;

  const call = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const response = await fetch(`${base}${path}`, init);
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text,
    };
  };
  const logLines = () => api.logLines();

  beforeAll(async () => {
    const started = await startServing('api', { LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '10000' }, '/health/live');
    api = started;
    base = started.baseUrl;
    const signUp = await call('/v1/accounts', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: `obs-${Date.now()}@example.com` }),
    });
    key = (signUp.body as { apiKey: { key: string } }).apiKey.key;
  });
  afterAll(() => api.stop('SIGKILL'));

  it('echoes a given X-Request-Id and logs one line per request with route, status, duration and account', async () => {
    const answer = await call('/v1/pets?limit=1', {
      headers: { Authorization: `Bearer ${key}`, 'X-Request-Id': 'trace-42' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toBe('trace-42');
    await waitFor(async () => logLines().some((line) => line.requestId === 'trace-42'), 5000, 'log line');
    const line = logLines().find((entry) => entry.requestId === 'trace-42')!;
    expect(line).toMatchObject({
      req: { method: 'GET', url: '/v1/pets?limit=1' },
      res: { status: 200 },
      route: '/v1/pets',
      accountId: expect.any(Number),
      durationMs: expect.any(Number),
    });
  });

  it('logs a request the body parser refuses, with its request id echoed', async () => {
    const answer = await call('/v1/pets', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'X-Request-Id': 'bad-json' },
      body: '{"name": "Rex",',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_json', status: 400 });
    expect(answer.headers.get('x-request-id')).toBe('bad-json');
    await waitFor(async () => logLines().some((line) => line.requestId === 'bad-json'), 5000, 'log line');
    expect(logLines().find((line) => line.requestId === 'bad-json')).toMatchObject({
      req: { method: 'POST', url: '/v1/pets' },
      res: { status: 400 },
    });
  });

  it('writes the framework’s own log lines through the same JSON logger', async () => {
    // Nest's wiring lines go out at trace (AppLogger): absent at info, there in full at trace.
    expect(logLines()).not.toContainEqual(expect.objectContaining({ context: 'NestApplication' }));
    const traced = await startServing('api', { LOG_LEVEL: 'trace' }, '/health/live');
    try {
      // The line travels through a pipe: wait until it has arrived.
      await waitFor(async () => traced.output().includes('Nest application successfully started'), 5000, 'the line');
      expect(traced.logLines()).toContainEqual(
        expect.objectContaining({
          level: 10,
          context: 'NestApplication',
          msg: 'Nest application successfully started',
        }),
      );
    } finally {
      await traced.stop();
    }
  });

  it('generates a request id when none (or a malformed one) is given', async () => {
    const answer = await call('/v1/categories', {
      headers: { Authorization: `Bearer ${key}`, 'X-Request-Id': 'bad id with spaces' },
    });
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never writes a key or an Authorization header to the logs', async () => {
    const authorizations = [
      `Bearer ${key}`,
      `Bearer ${key}x`,
      'Bearer pet_test_notarealkeybutlongenoughtolookliketheformat',
    ];
    const ids = authorizations.map((_, index) => `secrets-${index}`);
    for (const [index, authorization] of authorizations.entries()) {
      await call('/v1/account', { headers: { Authorization: authorization, 'X-Request-Id': ids[index]! } });
    }
    // The check means something only once these requests' own lines have been written.
    await waitFor(
      async () => ids.every((id) => logLines().some((entry) => entry.requestId === id)),
      5000,
      'their log lines',
    );
    expect(api.output()).not.toContain(key.slice(9));
    expect(api.output()).not.toMatch(/authorization/i);
    expect(api.output()).not.toContain('notarealkey');
  });

  it('exposes Prometheus metrics that move with requests', async () => {
    const count = async () => {
      const metrics = (await call('/metrics')).body as string;
      const match = /^http_requests_total\{method="GET",route="\/v1\/categories",status="200"[^}]*\} (\d+)$/m.exec(
        metrics,
      );
      return match ? Number(match[1]) : 0;
    };
    const before = await count();
    await call('/v1/categories', { headers: { Authorization: `Bearer ${key}` } });
    await call('/v1/categories', { headers: { Authorization: `Bearer ${key}` } });
    expect(await count()).toBe(before + 2);
    const metrics = (await call('/metrics')).body as string;
    expect(metrics).toContain('http_request_duration_seconds_bucket');
    expect(metrics).toContain('process_resident_memory_bytes');
  });

  it('lets an in-flight request finish on SIGTERM, then exits', async () => {
    const body = JSON.stringify({ name: 'Slowpoke', categoryId: 1 });
    const url = new URL(`${base}/v1/pets`);
    const request = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        // The server's 100 Continue tells that it has read the request's start.
        Expect: '100-continue',
      },
    });
    const headersRead = once(request, 'continue');
    const finished = new Promise<{ status: number; body: string }>((resolve, reject) => {
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, body: text }));
      });
      request.on('error', reject);
    });
    // Half the body now, the rest once the process drains.
    request.write(body.slice(0, 10));
    await headersRead;
    api.child.kill('SIGTERM');
    await waitFor(async () => api.output().includes('SIGTERM received: draining'), 10000, 'the api to drain');
    request.end(body.slice(10));
    const answer = await finished;
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toMatchObject({ name: 'Slowpoke' });
    await waitFor(async () => api.child.exitCode !== null, 10000, 'exit');
    expect(api.child.exitCode).toBe(0);
  });
});

describe('rate-limit refusals in the request log (real api process)', () => {
  it("logs a caller's first refusal in full and the rest in summaries, written at the latest on shutdown", async () => {
    const api = await startServing(
      'api',
      { LOG_LEVEL: 'info', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '2', TRUST_PROXY: 'true' },
      '/health/live',
    );
    const base = api.baseUrl;
    // Two addresses of one IPv6 /64, which the limits count as one caller.
    const subnet = `2001:db8:${randomInt(0x10000).toString(16)}:${randomInt(0x10000).toString(16)}`;
    try {
      await windowWithRoom(60, 5000);
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const headers = { 'X-Forwarded-For': `${subnet}::${1 + (i % 2)}`, 'X-Request-Id': `refused-${i}` };
        statuses.push((await fetch(`${base}/v1/pets`, { headers })).status);
      }
      // Keyless: the first two are counted and answered 401, the other six refused.
      expect(statuses).toEqual([401, 401, 429, 429, 429, 429, 429, 429]);
    } finally {
      await api.stop('SIGTERM');
    }
    const lines = api.logLines();
    const refusalLines = lines.filter(
      (line) => String(line.requestId).startsWith('refused-') && (line.res as { status: number }).status === 429,
    );
    const summaries = lines.filter((line) => line.context === 'RefusalLog') as Array<{
      refused: number;
      unlogged: number;
      byCaller: Record<string, number>;
    }>;
    // Usually one line and one summary; a summary interval ending mid-burst splits them in two.
    expect(refusalLines[0]).toMatchObject({ requestId: 'refused-2' });
    expect(refusalLines.length).toBeLessThanOrEqual(2);
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    const callers = new Set(summaries.flatMap((summary) => Object.keys(summary.byCaller)));
    expect([...callers]).toEqual([expect.stringMatching(/^ip:2001:db8:/)]);
    for (const summary of summaries) expect(Object.values(summary.byCaller)).toEqual([summary.refused]);
    const unlogged = summaries.reduce((total, summary) => total + summary.unlogged, 0);
    expect(refusalLines.length + unlogged).toBe(6);
  });
});
