import { AppEnv, CoreSettings } from '@app/core';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { DeliverEventJobData, DeliveredAttempt } from '../events.queue';
import { EventsSettings } from '../events.settings';
import { HOST_RESOLVER, HostResolver } from '../webhooks/public-addresses';
import { standardWebhookHeaders } from '../webhooks/webhook-signature';
import { WebhookSecrets } from '../webhooks/webhook-secrets';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookSender } from './webhook-sender';

/** An attempt that had no 2xx; `last` when no attempt follows it. */
export class WebhookAttemptFailedError extends Error {
  override name = 'WebhookAttemptFailedError';

  constructor(
    message: string,
    readonly last: boolean,
  ) {
    super(message);
  }
}

/**
 * One attempt of one delivery: count it and open its row, POST the signed Event, have the outcome written.
 * The `webhook-id` is the event id on every attempt; the timestamp and signature are the attempt's own.
 */
@Injectable()
export class WebhookDelivery implements OnApplicationShutdown {
  private readonly sender: WebhookSender;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly secrets: WebhookSecrets,
    private readonly settings: EventsSettings,
    env: CoreSettings,
    @Inject(HOST_RESOLVER) resolve: HostResolver,
  ) {
    this.sender = new WebhookSender({
      timeoutMs: settings.WEBHOOK_TIMEOUT_MS,
      publicOnly: env.APP_ENV !== AppEnv.Development,
      resolve,
    });
  }

  onApplicationShutdown(): void {
    this.sender.close();
  }

  /**
   * The attempt that succeeded, or undefined when there was nothing to send; throws
   * WebhookAttemptFailedError when the endpoint did not answer 2xx in time. The outcome is written
   * shortly after, with other attempts' (`recordOutcome`): the job does not wait for that write, which is
   * why it returns what succeeded.
   */
  async attempt(delivery: DeliverEventJobData): Promise<DeliveredAttempt | undefined> {
    const started = await this.deliveries.startAttempt(delivery);
    if (!started) {
      // Settled already, or its endpoint is disabled or gone: nothing to send, now or later.
      await this.deliveries.abandon(delivery);
      return undefined;
    }
    const body = JSON.stringify(started.event);
    const key = this.secrets.signingKey(started.secretCiphertext);
    const outcome = await this.sender.send(started.url, body, {
      ...standardWebhookHeaders(started.event.id, body, key),
    });
    const last = started.attempt >= this.settings.WEBHOOK_MAX_ATTEMPTS;
    void this.deliveries.recordOutcome(delivery, started.attemptId, outcome, last);
    if (!outcome.succeeded) throw new WebhookAttemptFailedError(outcome.error ?? 'failed', last);
    return { attemptId: started.attemptId, responseStatus: outcome.responseStatus!, durationMs: outcome.durationMs };
  }

  /** Writes the outcomes of the attempts made so far now. */
  flushOutcomes(): Promise<void> {
    return this.deliveries.flushOutcomes();
  }
}
