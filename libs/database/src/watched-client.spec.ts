import { once } from 'node:events';
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import type { Client } from 'pg';
import { isTemporaryFailure } from '@app/core';
import { WatchedClient } from './watched-client';

const UNANSWERED_AFTER_MS = 200;

function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}

const AUTHENTICATION_OK = message('R', Buffer.alloc(4));
const READY_FOR_QUERY = message('Z', Buffer.from('I'));

const SLOW_ANSWER_MS = 700;

/**
 * Just enough of PostgreSQL's protocol to log in and to answer simple queries: those naming `slow`
 * after SLOW_ANSWER_MS, those naming `hang` never, as a frozen server would not.
 */
async function fakePostgres(): Promise<Server> {
  const server = createServer((socket: Socket) => {
    let loggedIn = false;
    socket.on('data', (data: Buffer) => {
      if (!loggedIn) {
        loggedIn = true;
        socket.write(Buffer.concat([AUTHENTICATION_OK, READY_FOR_QUERY]));
      } else if (!data.toString().includes('hang')) {
        const answer = () => socket.write(Buffer.concat([message('C', Buffer.from('SELECT 0\0')), READY_FOR_QUERY]));
        if (data.toString().includes('slow')) setTimeout(answer, SLOW_ANSWER_MS);
        else answer();
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

  async function connect(unansweredAfterMs: number): Promise<Client> {
    const connected = new WatchedClient({
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      user: 'test',
      unansweredAfterMs,
    });
    // The pool listens for this in the apps: the connection's loss is also reported as an event.
    connected.on('error', () => undefined);
    await connected.connect();
    return connected;
  }

  beforeEach(async () => {
    server = await fakePostgres();
    client = await connect(UNANSWERED_AFTER_MS);
  });

  afterEach(async () => {
    await client.end().catch(() => undefined);
    server.close();
  });

  // WatchedClient reads two fields of pg's that its public API does not offer: an upgrade of pg that
  // renames them must fail here, by name, rather than leave statements unwatched.
  it("relies on pg's readyForQuery flag and its connection's socket, which this pg still has", async () => {
    const internals = client as unknown as { readyForQuery: unknown; connection: { stream: unknown } };
    expect(typeof internals.readyForQuery).toBe('boolean');
    expect(internals.readyForQuery).toBe(true);
    expect(internals.connection.stream).toBeInstanceOf(Socket);
    const running = client.query('SELECT slow');
    expect(internals.readyForQuery).toBe(false);
    await running;
  });

  it('fails a statement left unanswered, as an outage, by closing its connection', async () => {
    const error = await client.query('SELECT hang').catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('Connection terminated unexpectedly');
    expect(isTemporaryFailure(error)).toBe(true);
  });

  it('gives a statement queued behind others its own deadline, from when it is sent', async () => {
    await client.end();
    // Each answer comes within the deadline; the three together take longer than it.
    client = await connect(SLOW_ANSWER_MS + 300);

    const queued = await Promise.allSettled([1, 2, 3].map((n) => client.query(`SELECT ${n} AS slow`)));

    expect(queued.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
  });

  it('leaves an idle connection alone, however long it waits for its next statement', async () => {
    await client.query('SELECT 1');
    // Several sweeps, each past the deadline of the statement answered above.
    await new Promise((resolve) => setTimeout(resolve, UNANSWERED_AFTER_MS + 2_500));

    await expect(client.query('SELECT 2')).resolves.toMatchObject({ command: 'SELECT' });
  });
});
