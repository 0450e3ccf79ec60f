import { connect } from 'node:net';
import { AppProcess, freePort, startApp } from './support/processes';

/** Sends raw bytes and returns whatever the server answers before closing. */
function raw(port: number, payload: string, waitMs = 15000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setTimeout(waitMs, () => reject(new Error(`no answer within ${waitMs} ms`)));
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(payload);
  });
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
    expect(answer).toMatch(/^HTTP\/1.1 431 /);
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toEqual({
      code: 'headers_too_large',
      message: expect.any(String),
      status: 431,
    });
  });

  it('answers a malformed request line with 400 and the Error body', async () => {
    const answer = await raw(port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1.1 400 /);
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toMatchObject({ code: 'bad_request', status: 400 });
  });

  it('cuts off a client that never finishes its headers', async () => {
    const answer = await raw(port, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n', 20000);
    expect(answer === '' || answer.startsWith('HTTP/1.1 408 ')).toBe(true);
  });
});
