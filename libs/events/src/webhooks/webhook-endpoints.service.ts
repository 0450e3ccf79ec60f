import { AppEnv, CoreSettings, ValidationFailedError } from '@app/core';
import { Sql } from '@app/database';
import { Inject, Injectable } from '@nestjs/common';
import { AttemptPage, AttemptRow, WebhookAttemptsRepository } from '../delivery/webhook-attempts.repository';
import { WebhookJobsProducer } from '../delivery/webhook-jobs.producer';
import { WebhookEndpointDto } from '../dto/webhook-endpoint.dto';
import { TEST_EVENT_TYPE } from '../event-types';
import {
  EventNotFoundError,
  TooManyWebhookEndpointsError,
  WebhookDeliveryPendingError,
  WebhookEndpointDisabledError,
  WebhookEndpointNotFoundError,
  WebhookUrlRefusedError,
} from '../events.errors';
import { newEventId } from '../events.recorder';
import { EventsRepository } from '../events.repository';
import { HOST_RESOLVER, HostResolver, hostOf, NonPublicAddressError, publicAddresses } from './public-addresses';
import { newWebhookSecret, WebhookSecrets } from './webhook-secrets';
import { WebhookEndpoint, WebhookEndpointChange, WebhookEndpointsRepository } from './webhook-endpoints.repository';

/** At most this many endpoints per account. */
const MAX_WEBHOOK_ENDPOINTS = 10;

export interface NewEndpointRequest {
  url: string;
  events: string[];
  description?: string;
}

export interface EndpointChangeRequest {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

/** An account's webhook endpoints: the URL rules, the cap, the secret shown once. */
@Injectable()
export class WebhookEndpointsService {
  private readonly development: boolean;

  constructor(
    private readonly sql: Sql,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly secrets: WebhookSecrets,
    private readonly attempts: WebhookAttemptsRepository,
    private readonly events: EventsRepository,
    private readonly producer: WebhookJobsProducer,
    env: CoreSettings,
    @Inject(HOST_RESOLVER) private readonly resolve: HostResolver,
  ) {
    this.development = env.APP_ENV === AppEnv.Development;
  }

  /** The new endpoint and its secret, which is never shown again. */
  async create(accountId: number, request: NewEndpointRequest): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    await this.checkUrl(request.url);
    const secret = newWebhookSecret();
    const endpoint = await this.endpoints.create(
      accountId,
      {
        url: request.url,
        eventTypes: request.events,
        description: request.description,
        secretCiphertext: this.secrets.seal(secret),
      },
      MAX_WEBHOOK_ENDPOINTS,
    );
    if (!endpoint) throw new TooManyWebhookEndpointsError(MAX_WEBHOOK_ENDPOINTS);
    return { endpoint, secret };
  }

  list(accountId: number): Promise<WebhookEndpoint[]> {
    return this.endpoints.list(accountId);
  }

  async get(accountId: number, id: number): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findOne(accountId, id);
    if (!endpoint) throw new WebhookEndpointNotFoundError(id);
    return endpoint;
  }

  async update(accountId: number, id: number, request: EndpointChangeRequest): Promise<WebhookEndpoint> {
    const change: WebhookEndpointChange = {
      url: request.url,
      eventTypes: request.events,
      description: request.description,
      enabled: request.enabled,
    };
    if (Object.values(change).every((value) => value === undefined))
      throw new ValidationFailedError('the body must change at least one of url, events, description, enabled');
    // Another account's endpoint is not found before its URL is judged.
    await this.get(accountId, id);
    if (request.url !== undefined) await this.checkUrl(request.url);
    const endpoint = await this.endpoints.update(accountId, id, change);
    if (!endpoint) throw new WebhookEndpointNotFoundError(id);
    return endpoint;
  }

  /** The endpoint's delivery attempts, newest first; another account's endpoint is not found. */
  async listDeliveries(
    accountId: number,
    id: number,
    options: { limit: number; beforeId?: number },
  ): Promise<AttemptPage> {
    await this.get(accountId, id);
    return this.attempts.listAttempts(id, options);
  }

  /**
   * A new secret for the endpoint, shown only here; the one it replaces keeps signing beside it for
   * `hours` (Stripe's "roll secret"), so that receivers can switch without refusing a delivery.
   */
  async rotateSecret(
    accountId: number,
    id: number,
    hours: number,
  ): Promise<{ secret: string; previousSecretExpiresAt: Date }> {
    const secret = newWebhookSecret();
    const endpoint = await this.endpoints.rotateSecret(accountId, id, this.secrets.seal(secret), hours);
    if (!endpoint) throw new WebhookEndpointNotFoundError(id);
    return { secret, previousSecretExpiresAt: endpoint.previousSecretExpiresAt! };
  }

  /**
   * Sends one of the account's events to the endpoint again, once (GitHub's redelivery), whether or not
   * the endpoint subscribes to its type: the attempt opened, `pending`.
   */
  async redeliver(accountId: number, id: number, eventId: string): Promise<AttemptRow> {
    const endpoint = await this.enabled(accountId, id);
    if (!(await this.events.findOne(accountId, eventId))) throw new EventNotFoundError(eventId);
    // An attempt names an `events` row, which an alert stored apart becomes first: with the attempt, so that
    // the retention, which keeps an event with a pending attempt, never finds it without one.
    const attempt = await this.sql.transaction(async () => {
      await this.events.materialiseAlert(accountId, eventId);
      return this.attempts.openManualAttempt(eventId, endpoint.id);
    });
    if (attempt) return this.enqueue(attempt, endpoint.id);
    // Gone past retention meanwhile, or its delivery is under way.
    if (!(await this.events.findOne(accountId, eventId))) throw new EventNotFoundError(eventId);
    throw new WebhookDeliveryPendingError(eventId, endpoint.id);
  }

  /**
   * Records a `webhook_endpoint.test` event whose object is the endpoint, and sends it to that endpoint
   * only, once (GitHub's ping, Stripe's test webhook): the attempt opened, `pending`.
   */
  async sendTestEvent(accountId: number, id: number): Promise<AttemptRow> {
    const endpoint = await this.enabled(accountId, id);
    const attempt = await this.sql.transaction(async () => {
      const event = await this.events.insertDispatched(newEventId(), {
        recipientAccountId: accountId,
        type: TEST_EVENT_TYPE,
        object: WebhookEndpointDto.from(endpoint),
      });
      return (await this.attempts.openManualAttempt(event.id, endpoint.id))!;
    });
    return this.enqueue(attempt, endpoint.id);
  }

  async delete(accountId: number, id: number): Promise<void> {
    if (!(await this.endpoints.delete(accountId, id))) throw new WebhookEndpointNotFoundError(id);
  }

  /** The account's endpoint, which must be enabled to be sent anything. */
  private async enabled(accountId: number, id: number): Promise<WebhookEndpoint> {
    const endpoint = await this.get(accountId, id);
    if (!endpoint.enabled) throw new WebhookEndpointDisabledError(id);
    return endpoint;
  }

  /** What Redis does not take now, the worker's reconciler enqueues within its interval: the attempt is stored. */
  private async enqueue(attempt: AttemptRow, endpointId: number): Promise<AttemptRow> {
    await this.producer.enqueue([{ eventId: attempt.eventId, endpointId, manualAttempt: attempt.attempt }]);
    return attempt;
  }

  /**
   * `https` only (and `http` in development), without credentials; outside development the host must
   * be, and resolve only to, public addresses. Delivery checks the addresses again, since they may change.
   */
  private async checkUrl(text: string): Promise<void> {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new WebhookUrlRefusedError('must be an absolute URL');
    }
    const schemes = this.development ? ['https:', 'http:'] : ['https:'];
    if (!schemes.includes(url.protocol))
      throw new WebhookUrlRefusedError(`must use ${this.development ? 'https or http' : 'https'}`);
    if (url.username || url.password) throw new WebhookUrlRefusedError('must not carry credentials');
    if (this.development) return;
    try {
      await publicAddresses(hostOf(url), this.resolve);
    } catch (error) {
      if (error instanceof NonPublicAddressError) throw new WebhookUrlRefusedError(`is refused: ${error.message}`);
      throw error;
    }
  }
}
