import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A client gets this long to send its headers, and its whole request. Node checks these every 30 s,
 * so a connection that goes silent is also dropped after IDLE_TIMEOUT_MS without a byte either way.
 */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
const IDLE_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request was not received in time.'],
};

/**
 * Bounds how long a connection may take, and answers malformed or oversized requests that never reach
 * Express (Node rejects them while parsing) with the same Error body as every other error.
 */
export function applyServerLimits(server: Server): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.setTimeout(IDLE_TIMEOUT_MS);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
      400,
      'bad_request',
      'The request is malformed.',
    ];
    const body = JSON.stringify({ code, message, status });
    socket.end(
      `HTTP/1.1 ${status} ${code}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });
}
