import { createHmac } from 'node:crypto';
import { WEBHOOK_USER_AGENT } from '@app/events';
import { Webhook } from 'standardwebhooks';
import type { MessageDto } from '../dto/message.dto';
import type { MessagingSettings } from '../messaging.settings';
import { WebhookTransport } from './webhook.transport';

const MESSAGE: MessageDto = {
  id: 'msg_000000000000000000000001',
  message: 'Rex has found a home! ✓',
  status: 'sending',
  createdAt: '2026-06-01T00:00:00.000Z',
  attempts: 1,
  sentAt: null,
  lastError: null,
};
const SECRET = 'a-secret-of-at-least-16-chars';

function setUp(answer: () => Promise<Response>) {
  const fetch = jest.spyOn(globalThis, 'fetch').mockImplementation(answer);
  const transport = new WebhookTransport({
    MESSAGES_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
    MESSAGES_WEBHOOK_SECRET: SECRET,
    MESSAGES_WEBHOOK_TIMEOUT_MS: 2500,
  } as MessagingSettings);
  return { fetch, transport };
}

describe('WebhookTransport', () => {
  afterEach(() => jest.restoreAllMocks());

  it('POSTs the Message as JSON with its id and an HMAC-SHA256 signature of the exact body', async () => {
    const { fetch, transport } = setUp(async () => new Response(null, { status: 204 }));
    await transport.send(MESSAGE);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('http://127.0.0.1:9/hook');
    expect(init).toMatchObject({ method: 'POST', redirect: 'manual' });
    expect(init!.signal).toBeInstanceOf(AbortSignal);
    const body = init!.body as string;
    expect(JSON.parse(body)).toEqual(MESSAGE);
    const expected = createHmac('sha256', SECRET).update(Buffer.from(body, 'utf8')).digest('hex');
    const headers = init!.headers as Record<string, string>;
    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': WEBHOOK_USER_AGENT,
      'X-Message-Id': MESSAGE.id,
      'X-Signature': `sha256=${expected}`,
      'webhook-id': MESSAGE.id,
      'webhook-timestamp': expect.stringMatching(/^\d+$/),
      'webhook-signature': expect.stringMatching(/^v1,/),
    });
    // An independent implementation accepts it, keyed with the secret's UTF-8 bytes.
    const verifier = new Webhook(Buffer.from(SECRET, 'utf8'), { format: 'raw' });
    expect(verifier.verify(body, headers)).toEqual(MESSAGE);
  });

  it.each([500, 404, 302])('fails the attempt when the receiver answers %i', async (status) => {
    const { transport } = setUp(async () => new Response(null, { status }));
    await expect(transport.send(MESSAGE)).rejects.toThrow(`webhook answered ${status}`);
  });

  it('fails the attempt when the receiver does not answer in time', async () => {
    const { transport } = setUp(() => Promise.reject(new DOMException('timed out', 'TimeoutError')));
    await expect(transport.send(MESSAGE)).rejects.toThrow('webhook did not answer within 2500 ms');
  });

  it('names the network error when the receiver cannot be reached', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const { transport } = setUp(() => Promise.reject(refused));
    await expect(transport.send(MESSAGE)).rejects.toThrow('webhook request failed: ECONNREFUSED');
  });
});
