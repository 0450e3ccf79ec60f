import { connect, Socket } from 'node:net';
import { AppProcess, freePort, startApp, waitFor } from '../support/processes';

/** A raw connection that keeps what the server sends and notes when the server closes it. */
class RawConnection {
  received = '';
  closed = false;
  private readonly socket: Socket;
  private readonly opened: Promise<void>;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.opened = new Promise((resolve) => this.socket.once('connect', () => resolve()));
    this.socket.on('data', (chunk) => (this.received += chunk.toString()));
    this.socket.on('close', () => (this.closed = true));
    // A server that closes while the client still writes shows as EPIPE/ECONNRESET: what it sent stays readable.
    this.socket.on('error', () => undefined);
  }

  async write(payload: string): Promise<void> {
    await this.opened;
    this.socket.write(payload);
  }

  /** Waits until the server has closed the connection, and returns everything it sent. */
  async answerThenClose(waitMs = 15000): Promise<string> {
    await waitFor(async () => this.closed, waitMs, `the server to answer and close within ${waitMs} ms`);
    return this.received;
  }

  /** Waits for one complete response on a connection that stays open, and returns it. */
  async response(waitMs = 15000): Promise<string> {
    await waitFor(async () => completeResponse(this.received) !== undefined, waitMs, `a response within ${waitMs} ms`);
    const response = completeResponse(this.received)!;
    this.received = this.received.slice(response.length);
    return response;
  }

  close(): void {
    this.socket.destroy();
  }
}

function completeResponse(received: string): string | undefined {
  const headerEnd = received.indexOf('\r\n\r\n');
  if (headerEnd < 0) return undefined;
  const length = Number(/^content-length: *(\d+)/im.exec(received.slice(0, headerEnd))?.[1] ?? 0);
  const end = headerEnd + 4 + length;
  return received.length >= end ? received.slice(0, end) : undefined;
}

/** Sends raw bytes and returns whatever the server answers before closing. */
async function raw(port: number, payload: string, waitMs = 15000): Promise<string> {
  const connection = new RawConnection(port);
  await connection.write(payload);
  return connection.answerThenClose(waitMs);
}

/** The status, headers (lower-cased names) and parsed body of one raw response. */
function parse(response: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head, body] = [
    response.slice(0, response.indexOf('\r\n\r\n')),
    response.slice(response.indexOf('\r\n\r\n') + 4),
  ];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) };
}

/** Expects exactly one response, the Error body with `status` and `code`, sent on a connection it then closed. */
function expectErrorThenClose(answer: string, status: number, code: string): void {
  expect(answer.match(/^HTTP\/1\.1 /gm)).toHaveLength(1);
  const response = parse(answer);
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.headers.connection).toBe('close');
  expect(response.body).toEqual({ code, message: expect.any(String), status });
}

/** Sends `chunks` one every `everyMs` until the connection closes (the server's answer ends the trickle). */
async function trickle(connection: RawConnection, chunks: string[], everyMs: number): Promise<void> {
  for (const chunk of chunks) {
    if (connection.closed) return;
    await connection.write(chunk);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

describe('server limits (real api process)', () => {
  let api: AppProcess;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    api = await startApp('api', { PORT: String(port) }, `http://127.0.0.1:${port}/health/live`);
  });
  afterAll(() => api.stop());

  it('answers oversized headers with 431 and the Error body', async () => {
    const answer = await raw(port, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`);
    expectErrorThenClose(answer, 431, 'headers_too_large');
  });

  it('answers a malformed request line with 400 and the Error body', async () => {
    expectErrorThenClose(await raw(port, 'NOT HTTP AT ALL\r\n\r\n'), 400, 'bad_request');
  });

  it('answers an HTTP/1.1 request without Host with 400 bad_request and the Error body', async () => {
    expectErrorThenClose(await raw(port, 'GET /v1/pets HTTP/1.1\r\n\r\n'), 400, 'bad_request');
  });

  it('answers an expectation other than 100-continue with 417 expectation_failed', async () => {
    const answer = await raw(port, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n');
    expectErrorThenClose(answer, 417, 'expectation_failed');
  });

  it('answers CONNECT with 400 bad_request and the Error body', async () => {
    const answer = await raw(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectErrorThenClose(answer, 400, 'bad_request');
  });

  it('refuses a declared body over 64 KiB with 413 before it is sent, on an unknown route too', async () => {
    for (const path of ['/v1/pets', '/nowhere']) {
      // Only the headers are sent: the answer cannot wait for the body.
      const answer = await raw(
        port,
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n\r\n{`,
      );
      expectErrorThenClose(answer, 413, 'payload_too_large');
    }
  });

  it('ends a chunked body that grows past 64 KiB with one 413 and closes the connection', async () => {
    const chunk = `10000\r\n${' '.repeat(0x10000)}\r\n`;
    // A further request after the body: it must not be answered.
    const answer = await raw(
      port,
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
        `${chunk}${chunk}0\r\n\r\nGET /health/live HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expectErrorThenClose(answer, 413, 'payload_too_large');
  });

  it('cuts off a client that never finishes its headers', async () => {
    const answer = await raw(port, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n', 20000);
    expect(answer === '' || answer.startsWith('HTTP/1.1 408 ')).toBe(true);
  });
});

describe('server limits set by configuration (real api process)', () => {
  const MAX_CONNECTIONS = 3;
  let api: AppProcess;
  let port: number;
  const health = 'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n';

  beforeAll(async () => {
    port = await freePort();
    api = await startApp(
      'api',
      {
        PORT: String(port),
        HEADERS_TIMEOUT_MS: '1000',
        REQUEST_TIMEOUT_MS: '2000',
        MAX_CONNECTIONS_PER_CLIENT: String(MAX_CONNECTIONS),
      },
      `http://127.0.0.1:${port}/health/live`,
    );
  });
  afterAll(() => api.stop());

  // These clients send a byte every 200 ms, so the idle timeout never fires, and would take 12 s to finish.
  it('answers a client still sending its headers after HEADERS_TIMEOUT_MS with 408', async () => {
    const connection = new RawConnection(port);
    const sending = trickle(connection, [...'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Slow: '.padEnd(60, 'a')], 200);
    expectErrorThenClose(await connection.answerThenClose(8000), 408, 'request_timeout');
    await sending;
  });

  it('answers a client still sending its body after REQUEST_TIMEOUT_MS with 408', async () => {
    const connection = new RawConnection(port);
    await connection.write(
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n',
    );
    const sending = trickle(connection, [...' '.repeat(60)], 200);
    expectErrorThenClose(await connection.answerThenClose(8000), 408, 'request_timeout');
    await sending;
  });

  it('refuses a connection beyond MAX_CONNECTIONS_PER_CLIENT with 429, and admits again once one closes', async () => {
    const held = Array.from({ length: MAX_CONNECTIONS }, () => new RawConnection(port));
    for (const connection of held) {
      await connection.write(health);
      expect(await connection.response()).toMatch(/^HTTP\/1\.1 200 /);
    }

    const excess = new RawConnection(port);
    await excess.write(health);
    const refusal = await excess.answerThenClose();
    expectErrorThenClose(refusal, 429, 'too_many_connections');
    expect(parse(refusal).headers['retry-after']).toBe('1');

    held.pop()!.close();
    await waitFor(
      async () =>
        (await raw(port, `GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).startsWith(
          'HTTP/1.1 200 ',
        ),
      5000,
      'a new connection to be admitted once a held one closed',
    );
    // The connections that stayed open are still served.
    await held[0]!.write(health);
    expect(await held[0]!.response()).toMatch(/^HTTP\/1\.1 200 /);
    held.forEach((connection) => connection.close());
  });
});
