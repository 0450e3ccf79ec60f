import { ExpressAdapter } from '@nestjs/platform-express';
import { createServer, IncomingMessage, RequestListener, Server, ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpSettings } from './http.settings';

export type ServerLimits = Pick<
  HttpSettings,
  'HEADERS_TIMEOUT_MS' | 'REQUEST_TIMEOUT_MS' | 'IDLE_TIMEOUT_MS' | 'MAX_CONNECTIONS_PER_CLIENT'
>;

/** Node checks the headers and request timeouts this often (its default, 30 s, would stretch them). */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

type Refusal = [status: number, code: string, message: string, headers?: Record<string, string>];

const CLIENT_ERRORS: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request was not received in time.'],
};
const MALFORMED: Refusal = [400, 'bad_request', 'The request is malformed.'];
const MISSING_HOST: Refusal = [400, 'bad_request', 'An HTTP/1.1 request needs a Host header.'];
const CONNECT: Refusal = [400, 'bad_request', 'CONNECT is not supported: this server is not a proxy.'];
const EXPECTATION: Refusal = [417, 'expectation_failed', 'The only expectation supported is 100-continue.'];
const TOO_MANY_CONNECTIONS: Refusal = [
  429,
  'too_many_connections',
  'Too many open connections from this address; close one or retry shortly.',
  { 'Retry-After': '1' },
];

/** Each refusal here ends its connection: the request it answers may not have been read to its end. */
function answerOf([status, code, message, extraHeaders]: Refusal): [Record<string, string | number>, string] {
  const body = JSON.stringify({ code, message, status });
  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
    ...extraHeaders,
  };
  return [headers, body];
}

function refuse(response: ServerResponse, refusal: Refusal): void {
  const [headers, body] = answerOf(refusal);
  response.writeHead(refusal[0], headers).end(body);
}

/**
 * For what Node hands over as a bare socket, without a response object to write with. Node no longer
 * watches such a socket, so it is destroyed once the answer is out rather than left half-open.
 */
function refuseOnSocket(socket: Socket, refusal: Refusal): void {
  const [headers, body] = answerOf(refusal);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${refusal[0]} ${STATUS_CODES[refusal[0]]}\r\n${lines.join('')}\r\n${body}`, () =>
    socket.destroy(),
  );
}

/**
 * Counts the open connections of each client address and tells whether a connection is one too many.
 * Refused connections count until they close, so opening more of them never frees a place.
 */
function trackConnectionsPerClient(server: Server, max: number): (socket: Socket) => boolean {
  if (max === 0) return () => false;
  const open = new Map<string, number>();
  const excess = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const count = (open.get(address) ?? 0) + 1;
    open.set(address, count);
    if (count > max) excess.add(socket);
    socket.once('close', () => {
      const left = open.get(address)! - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
  return (socket) => excess.has(socket);
}

/**
 * The HTTP server of an app, with its time and connection limits. Requests and answers that Node
 * handles itself, without reaching Express, get the same Error body as every other error.
 */
function createLimitedServer(app: RequestListener, limits: ServerLimits): Server {
  const server = createServer({
    headersTimeout: limits.HEADERS_TIMEOUT_MS,
    requestTimeout: limits.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    // Node would answer a missing Host with an empty 400; the request listener answers it instead.
    requireHostHeader: false,
  });
  const isExcess = trackConnectionsPerClient(server, limits.MAX_CONNECTIONS_PER_CLIENT);
  // The latest response of each connection: a client error after its headers went out must not start
  // a second answer, and a connection awaiting its answer is never idle.
  const responses = new WeakMap<Socket, ServerResponse>();
  server.setTimeout(limits.IDLE_TIMEOUT_MS);
  // A listener makes Node leave the socket to it. While a request waits for its answer the silence is the
  // server's: cutting it then could drop the answer to a write that commits. The server's own deadlines
  // (statement, pool, storage) bound that wait and end it in an answer, and the socket's timer starts
  // again with the answer's first byte, so a client that stops reading it is still cut off.
  server.on('timeout', (socket: Socket) => {
    const response = responses.get(socket);
    if (response === undefined || response.headersSent) socket.destroy();
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    responses.set(request.socket, response);
    if (isExcess(request.socket)) refuse(response, TOO_MANY_CONNECTIONS);
    else if (request.httpVersion === '1.1' && request.headers.host === undefined) refuse(response, MISSING_HOST);
    else app(request, response);
  });
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => refuse(response, EXPECTATION));
  server.on('connect', (_request: IncomingMessage, socket: Socket) => refuseOnSocket(socket, CONNECT));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const response = responses.get(socket);
    const answering = response !== undefined && response.headersSent && !response.writableFinished;
    if (!socket.writable || answering || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    refuseOnSocket(socket, CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED);
  });
  return server;
}

/** Nest's Express adapter, serving on a server with the limits above instead of a bare one. */
export class LimitedExpressAdapter extends ExpressAdapter {
  constructor(private readonly limits: ServerLimits) {
    super();
  }

  override initHttpServer(): void {
    this.setHttpServer(createLimitedServer(this.getInstance<RequestListener>(), this.limits));
  }
}
