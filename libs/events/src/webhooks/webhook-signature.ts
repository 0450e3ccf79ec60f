import { createHmac, KeyObject } from 'node:crypto';

/**
 * The `User-Agent` of every webhook request, the account's endpoints' and the messages app's: receivers
 * (and their firewalls) can tell deliveries apart, as GitHub's `GitHub-Hookshot/…` and Stripe's
 * `Stripe/1.0` allow. The version is the delivery format's, not the service's.
 */
export const WEBHOOK_USER_AGENT = 'PetAdoptionService-Webhooks/1.0';

/** The Standard Webhooks headers of one attempt (CONTRACT 11). */
export interface StandardWebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with `key`: the
 * decoded bytes of a `whsec_` secret, or the UTF-8 bytes of the messages app's shared secret. A
 * KeyObject made once saves making one from the bytes on every call.
 */
export function standardWebhookHeaders(
  id: string,
  body: string,
  key: Buffer | KeyObject,
  at: Date = new Date(),
): StandardWebhookHeaders {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
