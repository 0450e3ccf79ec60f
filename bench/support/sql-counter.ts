import { once } from 'node:events';
import { createConnection, createServer, Server, Socket } from 'node:net';
import { portToListenOn } from './processes';

const SSL_REQUEST_CODE = 80877103;

/**
 * A TCP proxy in front of PostgreSQL that reads the client side of the wire protocol and counts the
 * statements executed: an Execute message (extended protocol, what `pg` sends for parameterised
 * queries) or a simple Query message is one statement. Cheaper and more exact than server-side
 * logging, and needs no pg_stat_statements (not preloaded on a shared server).
 */
export class SqlCounter {
  statements = 0;
  /** Statements by their SQL text, whitespace collapsed. */
  readonly texts = new Map<string, number>();
  /** Called for each statement bound to parameters, with its text and its parameters (null for NULL). */
  onBind?: (text: string, parameters: Array<string | null>) => void;
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly target: { host: string; port: number }) {}

  /** Starts listening on 127.0.0.1; returns the port. */
  async listen(): Promise<number> {
    this.server = createServer((client) => this.relay(client));
    this.server.listen(await portToListenOn(), '127.0.0.1');
    await once(this.server, 'listening');
    return (this.server.address() as { port: number }).port;
  }

  /** How many statements whose text contains `fragment` ran since the last reset. */
  countOf(fragment: string): number {
    return [...this.texts].reduce((sum, [text, count]) => sum + (text.includes(fragment) ? count : 0), 0);
  }

  reset(): void {
    this.statements = 0;
    this.texts.clear();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server?.close();
  }

  private relay(client: Socket): void {
    const server = createConnection(this.target);
    for (const socket of [client, server]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => (socket === client ? server : client).destroy());
    }
    client.pipe(server);
    server.pipe(client);
    let pending = Buffer.alloc(0);
    // Until the startup message has passed, messages carry no type byte.
    let started = false;
    // This connection's prepared statements: text by name (the unnamed one is '').
    const statementTexts = new Map<string, string>();
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const headerLength = started ? 5 : 4;
        if (pending.length < headerLength) break;
        const length = pending.readInt32BE(started ? 1 : 0);
        const total = length + (started ? 1 : 0);
        if (pending.length < total) break;
        if (!started) started = pending.readInt32BE(4) !== SSL_REQUEST_CODE;
        else this.inspect(pending.subarray(0, total), statementTexts);
        pending = pending.subarray(total);
      }
    });
  }

  private inspect(message: Buffer, statementTexts: Map<string, string>): void {
    const type = String.fromCharCode(message[0]!);
    if (type === 'E' || type === 'Q') this.statements++;
    if (type === 'Q') this.count(this.cString(message, 5));
    // Parse names a statement and gives its text; Bind names the statement the next Execute runs. A
    // named statement is parsed once per connection, so its text is counted at Bind.
    if (type === 'P') {
      const name = this.cString(message, 5);
      statementTexts.set(name, this.cString(message, 5 + Buffer.byteLength(name) + 1));
    }
    if (type === 'B') {
      const portal = this.cString(message, 5);
      const statement = this.cString(message, 5 + Buffer.byteLength(portal) + 1);
      const text = statementTexts.get(statement);
      if (text !== undefined) {
        this.count(text);
        this.onBind?.(text, this.parameters(message, 5 + Buffer.byteLength(portal) + Buffer.byteLength(statement) + 2));
      }
    }
  }

  /** A Bind message's parameter values from `start` on: format codes, then each value's length and bytes. */
  private parameters(message: Buffer, start: number): Array<string | null> {
    let offset = start + 2 + 2 * message.readInt16BE(start);
    const count = message.readInt16BE(offset);
    offset += 2;
    const values: Array<string | null> = [];
    for (let i = 0; i < count; i++) {
      const length = message.readInt32BE(offset);
      offset += 4;
      values.push(length < 0 ? null : message.toString('utf8', offset, offset + length));
      offset += Math.max(length, 0);
    }
    return values;
  }

  private cString(message: Buffer, start: number): string {
    return message.toString('utf8', start, message.indexOf(0, start));
  }

  private count(sql: string): void {
    const text = sql.replace(/\s+/g, ' ').trim();
    this.texts.set(text, (this.texts.get(text) ?? 0) + 1);
  }
}
