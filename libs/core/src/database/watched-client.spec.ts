import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { Client } from 'pg';
import { isDependencyUnavailable } from '../errors/dependency-errors';
import { WatchedClient } from './watched-client';

const UNANSWERED_AFTER_MS = 200;

function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}

const AUTHENTICATION_OK = message('R', Buffer.alloc(4));
const READY_FOR_QUERY = message('Z', Buffer.from('I'));

/**
 * Just enough of PostgreSQL's protocol to log in and to answer simple queries, except those naming
 * `hang`, which it never answers, as a frozen server would not.
 */
async function fakePostgres(): Promise<Server> {
  const server = createServer((socket: Socket) => {
    let loggedIn = false;
    socket.on('data', (data: Buffer) => {
      if (!loggedIn) {
        loggedIn = true;
        socket.write(Buffer.concat([AUTHENTICATION_OK, READY_FOR_QUERY]));
      } else if (!data.toString().includes('hang')) {
        socket.write(Buffer.concat([message('C', Buffer.from('SELECT 0\0')), READY_FOR_QUERY]));
      }
    });
    socket.on('error', () => undefined);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

describe('WatchedClient', () => {
  let server: Server;
  /** Used as the pool uses it: through pg's own signatures. */
  let client: Client;

  beforeEach(async () => {
    server = await fakePostgres();
    client = new WatchedClient({
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      user: 'test',
      unansweredAfterMs: UNANSWERED_AFTER_MS,
    });
    // The pool listens for this in the apps: the connection's loss is also reported as an event.
    client.on('error', () => undefined);
    await client.connect();
  });

  afterEach(async () => {
    await client.end().catch(() => undefined);
    server.close();
  });

  it('fails a statement left unanswered, as an outage, by closing its connection', async () => {
    const error = await client.query('SELECT hang').catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('Connection terminated unexpectedly');
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it('leaves an idle connection alone, however long it waits for its next statement', async () => {
    await client.query('SELECT 1');
    // Several sweeps, each past the deadline of the statement answered above.
    await new Promise((resolve) => setTimeout(resolve, UNANSWERED_AFTER_MS + 2_500));

    await expect(client.query('SELECT 2')).resolves.toMatchObject({ command: 'SELECT' });
  });
});
