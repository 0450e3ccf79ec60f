import { connect, createServer, Server, Socket } from 'node:net';
import { onFreePorts } from './processes';

/**
 * A TCP proxy in front of the S3 store that can stall: while stalled it passes nothing either way, and
 * on release it passes what it held, in order. Storage that is slow rather than away.
 */
export class StallingProxy {
  port = 0;
  stalled = false;
  /** When set, stalls from the first chunk a client sends that it matches on. */
  stallOn?: (chunk: Buffer) => boolean;
  heldBytes = 0;
  private server?: Server;
  private held: Array<() => void> = [];
  private readonly sockets = new Set<Socket>();

  constructor(private readonly targetPort: () => number) {}

  async create(): Promise<this> {
    this.server = createServer((client) => this.forward(client));
    await onFreePorts(1, async (port) => {
      this.port = port;
      await new Promise<void>((resolve, reject) => {
        this.server!.once('error', reject);
        this.server!.listen(port, '127.0.0.1', () => resolve());
      });
    });
    return this;
  }

  release(): void {
    this.stalled = false;
    this.stallOn = undefined;
    this.heldBytes = 0;
    for (const pass of this.held.splice(0)) pass();
  }

  async destroy(): Promise<void> {
    this.sockets.forEach((socket) => socket.destroy());
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private forward(client: Socket): void {
    const upstream = connect(this.targetPort(), '127.0.0.1');
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(from);
      from.on('data', (chunk: Buffer) => {
        if (from === client && this.stallOn?.(chunk)) this.stalled = true;
        this.pass(chunk.length, () => to.write(chunk));
      });
      from.on('end', () => this.pass(0, () => to.end()));
      from.on('error', () => to.destroy());
      from.on('close', () => this.sockets.delete(from));
    }
  }

  private pass(bytes: number, send: () => void): void {
    if (!this.stalled) return send();
    this.heldBytes += bytes;
    this.held.push(send);
  }
}
