import { createHmac, timingSafeEqual } from 'node:crypto';

/** The three Standard Webhooks headers of a delivery, by their lower-case names. */
export interface WebhookHeaders {
  'webhook-id'?: string;
  'webhook-timestamp'?: string;
  'webhook-signature'?: string;
}

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

const DEFAULT_TOLERANCE_SECONDS = 300;

/** The signing key: the bytes a `whsec_` secret encodes in base64. */
function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/**
 * Checks a webhook delivery (Standard Webhooks): `webhook-signature` holds one or more `v1,<base64>` HMAC-SHA256
 * signatures of `{webhook-id}.{webhook-timestamp}.{body}`, and the timestamp is within `toleranceSeconds` of
 * now (a replayed old delivery is refused). Pass the body exactly as received. Returns it parsed.
 */
export function verifyWebhook<T = unknown>(
  secret: string,
  headers: WebhookHeaders,
  body: string,
  options: { toleranceSeconds?: number; nowSeconds?: number } = {},
): T {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing Standard Webhooks headers.');
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (
    !/^\d+$/.test(timestamp) ||
    Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)
  )
    throw new WebhookVerificationError('The webhook timestamp is missing or too far from now.');
  const expected = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature = ''] = entry.split(',');
    const given = Buffer.from(signature, 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('No signature of the webhook matches.');
  return JSON.parse(body) as T;
}
