import { createHmac, KeyObject } from 'node:crypto';

/**
 * The `User-Agent` of every webhook request, the account's endpoints' and the messages app's: receivers
 * (and their firewalls) can tell deliveries apart, as GitHub's `GitHub-Hookshot/…` and Stripe's
 * `Stripe/1.0` allow. The version is the delivery format's, not the service's.
 */
export const WEBHOOK_USER_AGENT = 'PetAdoptionService-Webhooks/1.0';

/** The Standard Webhooks headers of one attempt. */
export interface StandardWebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The decoded bytes of a `whsec_` secret, or the UTF-8 bytes of the messages app's shared secret. */
export type SigningKey = Buffer | KeyObject;

/**
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with `key`; given
 * several keys (an endpoint's current and previous secrets during a rotation), one space-separated `v1,`
 * signature per key, the current first, as Standard Webhooks allows: a receiver holding either secret
 * verifies the request. A KeyObject made once saves making one from the bytes on every call.
 */
export function standardWebhookHeaders(
  id: string,
  body: string,
  key: SigningKey | readonly SigningKey[],
  at: Date = new Date(),
): StandardWebhookHeaders {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signatures = (Array.isArray(key) ? key : [key]).map(
    (each: SigningKey) => `v1,${createHmac('sha256', each).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
  );
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
