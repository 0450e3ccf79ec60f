import { AppEnv, CoreSettings, ValidationFailedError } from '@app/core';
import { Inject, Injectable } from '@nestjs/common';
import { AttemptPage, WebhookAttemptsRepository } from '../delivery/webhook-attempts.repository';
import { WebhookEndpointNotFoundError, TooManyWebhookEndpointsError, WebhookUrlRefusedError } from '../events.errors';
import { HOST_RESOLVER, HostResolver, hostOf, NonPublicAddressError, publicAddresses } from './public-addresses';
import { newWebhookSecret, WebhookSecrets } from './webhook-secrets';
import { WebhookEndpoint, WebhookEndpointChange, WebhookEndpointsRepository } from './webhook-endpoints.repository';

/** CONTRACT 11: at most this many endpoints per account. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

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
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly secrets: WebhookSecrets,
    private readonly attempts: WebhookAttemptsRepository,
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

  async delete(accountId: number, id: number): Promise<void> {
    if (!(await this.endpoints.delete(accountId, id))) throw new WebhookEndpointNotFoundError(id);
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
