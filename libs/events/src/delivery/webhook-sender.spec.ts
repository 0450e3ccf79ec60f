import { once } from 'node:events';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { WEBHOOK_USER_AGENT } from '../webhooks/webhook-signature';
import { WebhookSender } from './webhook-sender';

/** A receiver on 127.0.0.1 that records what reached it and answers `status`. */
async function receiver(status: number, extra: Record<string, string> = {}) {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(status, extra).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { received, port, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('WebhookSender', () => {
  it('refuses a name that resolves to a loopback address before connecting, and sends to a literal one unchecked in development', async () => {
    const target = await receiver(204);
    // The name resolves to the receiver's address for the check; the system resolver knows no such name.
    const resolve = jest.fn(async () => ['127.0.0.1']);
    const sender = new WebhookSender({ timeoutMs: 2000, publicOnly: false, resolve });
    try {
      const checked = new WebhookSender({ timeoutMs: 2000, publicOnly: true, resolve });
      const refused = await checked.send(`http://hooks.invalid:${target.port}/`, '{}', {});
      expect(refused).toMatchObject({
        succeeded: false,
        error: 'host hooks.invalid resolves to 127.0.0.1, a loopback address',
      });
      expect(target.received).toHaveLength(0);
      checked.close();

      const outcome = await sender.send(`http://127.0.0.1:${target.port}/`, '{"a":1}', { 'webhook-id': 'evt_1' });
      expect(outcome).toMatchObject({ succeeded: true, responseStatus: 204 });
      expect(target.received[0]).toMatchObject({
        body: '{"a":1}',
        headers: { 'webhook-id': 'evt_1', 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT },
      });
    } finally {
      sender.close();
      await target.close();
    }
  });

  it('sends to the address the resolver gave, with the name as Host', async () => {
    const target = await receiver(200);
    const resolve = jest.fn(async () => ['127.0.0.1']);
    const sender = new WebhookSender({ timeoutMs: 2000, publicOnly: false, resolve });
    try {
      const outcome = await sender.send(`http://only-the-stub-knows.invalid:${target.port}/`, '{}', {});
      expect(outcome).toMatchObject({ succeeded: true, responseStatus: 200 });
      expect(resolve).toHaveBeenCalledWith('only-the-stub-knows.invalid');
      expect(target.received[0]!.headers.host).toBe(`only-the-stub-knows.invalid:${target.port}`);
    } finally {
      sender.close();
      await target.close();
    }
  });

  it('does not follow a redirect, and fails on any answer but 2xx', async () => {
    const target = await receiver(302, { Location: 'http://127.0.0.1:1/elsewhere' });
    const sender = new WebhookSender({ timeoutMs: 2000, publicOnly: false, resolve: jest.fn() });
    try {
      expect(await sender.send(`http://127.0.0.1:${target.port}/`, '{}', {})).toMatchObject({
        succeeded: false,
        responseStatus: 302,
        error: 'answered 302 (redirects are not followed)',
      });
      expect(target.received).toHaveLength(1);
    } finally {
      sender.close();
      await target.close();
    }
  });

  it('fails an attempt that gets no answer within the timeout', async () => {
    const server = createServer(() => undefined);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const sender = new WebhookSender({ timeoutMs: 150, publicOnly: false, resolve: jest.fn() });
    try {
      const outcome = await sender.send(`http://127.0.0.1:${port}/`, '{}', {});
      expect(outcome).toMatchObject({ succeeded: false, error: 'no answer within 150 ms' });
      expect(outcome.responseStatus).toBeUndefined();
    } finally {
      sender.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
