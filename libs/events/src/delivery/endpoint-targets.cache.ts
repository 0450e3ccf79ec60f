import { Batcher, Clock } from '@app/core';
import { Injectable } from '@nestjs/common';
import { EndpointTarget, WebhookEndpointsRepository } from '../webhooks/webhook-endpoints.repository';

/**
 * How long an endpoint's URL, secret and `enabled` are reused for first attempts: a change or a deletion
 * reaches every delivery within this, without a read per delivery.
 */
export const ENDPOINT_TARGET_TTL_MS = 1000;

/** Past this many endpoints kept, the expired ones are let go before another is added. */
const MAX_KEPT = 10_000;

interface Cached {
  target: Promise<EndpointTarget | undefined>;
  expiresAt: number;
}

/**
 * Endpoints as first attempts use them, read at most once per `ENDPOINT_TARGET_TTL_MS` in a process; the
 * endpoints missed at the same time are read with one statement. Retries read their endpoint with their
 * attempt instead (`WebhookAttemptsRepository.pendingAttempt`).
 */
@Injectable()
export class EndpointTargetsCache {
  private readonly cached = new Map<number, Cached>();
  private readonly reads = new Batcher<number, EndpointTarget | undefined>((ids) => this.read(ids), 0);

  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly clock: Clock,
  ) {}

  /** The endpoint, or undefined when it is gone. */
  get(id: number): Promise<EndpointTarget | undefined> {
    const now = this.clock.now().getTime();
    const cached = this.cached.get(id);
    if (cached && cached.expiresAt > now) return cached.target;
    if (this.cached.size >= MAX_KEPT) this.letExpiredGo(now);
    const target = this.reads.add(id);
    const entry = { target, expiresAt: now + ENDPOINT_TARGET_TTL_MS };
    this.cached.set(id, entry);
    // A failed read is not kept: the next delivery reads again.
    target.catch(() => {
      if (this.cached.get(id) === entry) this.cached.delete(id);
    });
    return target;
  }

  private letExpiredGo(now: number): void {
    for (const [id, { expiresAt }] of this.cached) if (expiresAt <= now) this.cached.delete(id);
  }

  private async read(ids: number[]): Promise<Array<EndpointTarget | undefined>> {
    const found = new Map((await this.endpoints.targets([...new Set(ids)])).map((target) => [target.id, target]));
    return ids.map((id) => found.get(id));
  }
}
