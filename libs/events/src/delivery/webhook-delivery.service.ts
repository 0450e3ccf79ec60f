import { AppEnv, CoreSettings } from '@app/core';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { EventObjects } from '../event-objects';
import type { DeliverEventJobData, DeliveredAttempt } from '../events.queue';
import { EventsSettings } from '../events.settings';
import { HOST_RESOLVER, HostResolver } from '../webhooks/public-addresses';
import { standardWebhookHeaders } from '../webhooks/webhook-signature';
import { WebhookSecrets } from '../webhooks/webhook-secrets';
import { EndpointTargetsCache } from './endpoint-targets.cache';
import { PendingAttempt, WebhookAttemptsRepository } from './webhook-attempts.repository';
import { WebhookSender } from './webhook-sender';

/** The error of an attempt that found its endpoint disabled, and sent nothing. */
export const ENDPOINT_DISABLED = 'the endpoint is disabled';

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
 * One attempt of one delivery: find its pending attempt, POST the signed Event, have the outcome written.
 * The `webhook-id` is the event id on every attempt; the timestamp and signature are the attempt's own.
 */
@Injectable()
export class WebhookDeliveryService implements OnApplicationShutdown {
  private readonly sender: WebhookSender;

  constructor(
    private readonly attempts: WebhookAttemptsRepository,
    private readonly endpoints: EndpointTargetsCache,
    private readonly secrets: WebhookSecrets,
    private readonly settings: EventsSettings,
    private readonly objects: EventObjects,
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
   * What the endpoint answered when it succeeded, or undefined when there was nothing to send; throws
   * WebhookAttemptFailedError when the endpoint did not answer 2xx in time. A success is written shortly
   * after, with other attempts' (`recordOutcome`): the job does not wait for that write, which is why it
   * returns the answer. A failure is written before the job fails, so that the retry finds the next
   * attempt open; when that write fails, its error is thrown instead (PostgreSQL away: the processor
   * delays the job without using up an attempt).
   */
  async attempt(delivery: DeliverEventJobData, firstRun: boolean): Promise<DeliveredAttempt | undefined> {
    const pending = await this.pendingAttempt(delivery, firstRun);
    // Settled already, or its endpoint is gone: nothing to send, now or later.
    if (!pending) return undefined;
    if (!pending.enabled) {
      await this.attempts.recordOutcome(pending, { succeeded: false, error: ENDPOINT_DISABLED }, false);
      return undefined;
    }
    // Formed as it is sent, not when the event was recorded or enqueued: a retry hours later has today's URLs.
    const body = JSON.stringify(this.objects.servedEvent(pending.event));
    const now = new Date();
    const keys = this.secrets.signingKeys(pending, now);
    const outcome = await this.sender.send(pending.url, body, {
      ...standardWebhookHeaders(pending.event.id, body, keys, now),
    });
    if (outcome.succeeded) {
      // The job ends with the answer; a success not written was logged, and the reconciler sends it again.
      this.attempts.recordOutcome(pending, outcome, false).catch(() => undefined);
      return { responseStatus: outcome.responseStatus!, durationMs: outcome.durationMs };
    }
    const last = pending.manual || pending.attempt >= this.settings.WEBHOOK_MAX_ATTEMPTS;
    // A failure not written rejects here, and the attempt stays pending: its job's next run makes it again
    // rather than using up another.
    await this.attempts.recordOutcome(pending, outcome, !last);
    throw new WebhookAttemptFailedError(outcome.error ?? 'failed', last);
  }

  /**
   * A job's first run makes the first attempt the dispatcher gave it, to its endpoint as recently read
   * (`EndpointTargetsCache`); any other run reads its delivery's pending attempt. So does a first run whose
   * endpoint looks disabled or gone, since that would end its delivery for good: an endpoint enabled again
   * within the cache's life is then still delivered to. A first attempt made twice (its job run again
   * after its worker stopped before the job's end) is sent again, as delivery is at least once, and its
   * outcome is written once.
   */
  private async pendingAttempt(delivery: DeliverEventJobData, firstRun: boolean): Promise<PendingAttempt | undefined> {
    const first = firstRun ? delivery.first : undefined;
    const endpoint = first && (await this.endpoints.get(delivery.endpointId));
    if (!first || !endpoint?.enabled) return this.attempts.pendingAttempt(delivery);
    return {
      attemptId: first.attemptId,
      endpointId: delivery.endpointId,
      attempt: 1,
      manual: false,
      url: endpoint.url,
      secretCiphertext: endpoint.secretCiphertext,
      previousSecretCiphertext: endpoint.previousSecretCiphertext,
      previousSecretExpiresAt: endpoint.previousSecretExpiresAt,
      enabled: true,
      event: first.event,
    };
  }

  /** Writes the outcomes of the attempts made so far now. */
  flushOutcomes(): Promise<void> {
    return this.attempts.flushOutcomes();
  }
}
