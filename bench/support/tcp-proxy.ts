import { once } from 'node:events';
import { createConnection, createServer, Server, Socket } from 'node:net';
import { portToListenOn } from './processes';

/**
 * A TCP relay in front of PostgreSQL or Redis that a test can cut and restore, or freeze, to make the
 * real dependency unreachable for the app under test without touching the shared server.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  /** While frozen, connections stay open and bytes are dropped both ways: a server that hangs. */
  private frozen = false;
  port = 0;

  constructor(
    private readonly targetPort: number,
    private readonly targetHost = '127.0.0.1',
  ) {}

  async start(port = 0): Promise<number> {
    this.server = createServer((client) => {
      const upstream = createConnection(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.on('data', (chunk: Buffer) => this.frozen || upstream.write(chunk));
      upstream.on('data', (chunk: Buffer) => this.frozen || client.write(chunk));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server.listen(port || this.port || (await portToListenOn()), '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  /** Keeps every connection and stops relaying: the dependency hangs. */
  freeze(): void {
    this.frozen = true;
  }

  /** Drops every connection and stops listening: the dependency is gone. */
  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (this.server) {
      const closed = once(this.server, 'close');
      this.server.close();
      await closed;
      this.server = undefined;
    }
  }

  /** Listens again on the same port: the dependency is back. */
  async restore(): Promise<void> {
    await this.start(this.port);
  }
}

/** Accepts connections and never answers: a frozen Redis. */
export async function blackHole(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  server.listen(await portToListenOn(), '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
