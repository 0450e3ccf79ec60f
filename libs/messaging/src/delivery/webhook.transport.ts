import { createHmac } from 'node:crypto';
import { standardWebhookHeaders, WEBHOOK_USER_AGENT } from '@app/events';
import type { MessagingSettings } from '../messaging.settings';
import type { MessageDto } from '../dto/message.dto';
import { DeliveryError } from '../messages.errors';
import type { MessageTransport } from './message-transport';

/** `sha256=` and the hex HMAC-SHA256 of the exact body bytes, keyed with the shared secret. */
function webhookSignature(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function describeFailure(error: unknown, timeoutMs: number): string {
  const { name, message, cause } = error as { name?: string; message?: string; cause?: { code?: string } };
  if (name === 'TimeoutError') return `webhook did not answer within ${timeoutMs} ms`;
  return `webhook request failed: ${cause?.code ?? message ?? String(error)}`;
}

/**
 * POSTs the Message as JSON to `MESSAGES_WEBHOOK_URL`, signed in `X-Signature` and in the Standard
 * Webhooks headers (`webhook-id` is the message id). `X-Message-Id` is
 * the same on every attempt, so the receiver can drop a repeated delivery. Anything but a 2xx answer
 * within `MESSAGES_WEBHOOK_TIMEOUT_MS` fails the attempt.
 */
export class WebhookTransport implements MessageTransport {
  private readonly url: string;
  private readonly secret: string;
  private readonly timeoutMs: number;

  constructor(settings: MessagingSettings) {
    // Configuration validation requires both when the webhook transport is chosen.
    this.url = settings.MESSAGES_WEBHOOK_URL!;
    this.secret = settings.MESSAGES_WEBHOOK_SECRET!;
    this.timeoutMs = settings.MESSAGES_WEBHOOK_TIMEOUT_MS;
  }

  async send(message: MessageDto): Promise<void> {
    const body = JSON.stringify(message);
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': WEBHOOK_USER_AGENT,
          'X-Message-Id': message.id,
          'X-Signature': webhookSignature(body, this.secret),
          // The same signature the Standard Webhooks way, keyed with the secret's UTF-8 bytes.
          ...standardWebhookHeaders(message.id, body, Buffer.from(this.secret, 'utf8')),
        },
        body,
        // A redirect is not a delivery; following it would re-send the body somewhere else.
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      // The answer's body is of no use; releasing it frees the connection.
      await response.body?.cancel();
    } catch (error) {
      throw new DeliveryError(describeFailure(error, this.timeoutMs));
    }
    if (!response.ok) throw new DeliveryError(`webhook answered ${response.status}`);
  }
}
