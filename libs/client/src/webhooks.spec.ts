import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from './webhooks';

const secret = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;
const body = JSON.stringify({ id: 'evt_1', type: 'pet.created', data: { object: { id: 1 } } });
const now = 1_800_000_000;

/** Headers as the reference implementation of Standard Webhooks signs them. */
function signed(id = 'evt_1', at = now, payload = body) {
  const signature = new Webhook(secret).sign(id, new Date(at * 1000), payload);
  return { 'webhook-id': id, 'webhook-timestamp': String(at), 'webhook-signature': signature };
}

describe('verifyWebhook', () => {
  it('accepts what the Standard Webhooks reference signs, and returns the event', () => {
    expect(verifyWebhook(secret, signed(), body, { nowSeconds: now + 10 })).toEqual(JSON.parse(body));
  });

  it('accepts when any of several signatures matches (a secret being rotated)', () => {
    const headers = signed();
    headers['webhook-signature'] = `v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}`;
    expect(() => verifyWebhook(secret, headers, body, { nowSeconds: now })).not.toThrow();
  });

  it('refuses a changed body, another id, another secret, or missing headers', () => {
    const verify =
      (headers: object, payload = body, key = secret) =>
      () =>
        verifyWebhook(key, headers, payload, { nowSeconds: now });
    expect(verify(signed(), body.replace('1', '2'))).toThrow(WebhookVerificationError);
    expect(verify({ ...signed(), 'webhook-id': 'evt_2' })).toThrow(WebhookVerificationError);
    expect(verify(signed(), body, `whsec_${Buffer.from('another secret').toString('base64')}`)).toThrow(
      WebhookVerificationError,
    );
    expect(verify({ 'webhook-id': 'evt_1' })).toThrow('Missing Standard Webhooks headers.');
  });

  it('refuses a delivery signed too long ago or in the future (a replay)', () => {
    expect(() => verifyWebhook(secret, signed('evt_1', now - 301), body, { nowSeconds: now })).toThrow(
      'too far from now',
    );
    expect(() => verifyWebhook(secret, signed('evt_1', now + 301), body, { nowSeconds: now })).toThrow(
      'too far from now',
    );
  });
});
