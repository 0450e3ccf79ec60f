import { AuthenticatedRequest, Environment, Principal, RedisEvents } from '@app/core';
import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AccountEvents } from '../account-events';
import { limitsFor } from '../plans';
import { API_KEY_FORMAT, hashApiKey } from './api-key-secret';
import { ApiKeysRepository } from './api-keys.repository';
import { LastUsedRecorder } from './last-used-recorder';

/** Enough for every active key of a large deployment (an entry is about 200 bytes). */
const MAX_CACHED_KEYS = 100_000;
const BEARER = /^Bearer +(\S+) *$/i;
const RESOLVED = Symbol('api-key-resolved');

interface CachedLookup {
  principal: Principal | undefined;
  expiresAt: number;
}

/**
 * Resolves `Authorization: Bearer <key>` to the caller. Keys are looked up by their SHA-256 hash
 * (an index lookup, so there is no timing oracle on the secret) and cached per process. Revocations
 * and plan changes are pushed over Redis; while that push channel is down the cache is bypassed.
 */
@Injectable()
export class ApiKeyAuthenticator implements OnModuleInit, OnApplicationShutdown {
  private readonly cache = new Map<string, CachedLookup>();

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly events: AccountEvents,
    private readonly redisEvents: RedisEvents,
    private readonly lastUsed: LastUsedRecorder,
    private readonly env: Environment,
  ) {}

  onModuleInit(): void {
    this.events.subscribe((event) => {
      for (const [hash, entry] of this.cache) {
        const principal = entry.principal;
        if (!principal) continue;
        if (
          (event.type === 'key-revoked' && principal.keyId === event.keyId) ||
          (event.type === 'account-changed' && principal.accountId === event.accountId)
        ) {
          this.cache.delete(hash);
        }
      }
    });
    // Messages may have been missed while disconnected.
    this.redisEvents.onReconnect(() => this.cache.clear());
  }

  onApplicationShutdown(): void {
    this.cache.clear();
  }

  /** The caller, or undefined when the key is missing, malformed, unknown or revoked. Memoised per request. */
  async identify(request: AuthenticatedRequest): Promise<Principal | undefined> {
    const memo = request as AuthenticatedRequest & { [RESOLVED]?: true };
    if (memo[RESOLVED]) return request.principal;
    const secret = BEARER.exec(request.headers.authorization ?? '')?.[1];
    const principal = secret && API_KEY_FORMAT.test(secret) ? await this.lookup(secret) : undefined;
    memo[RESOLVED] = true;
    request.principal = principal;
    if (principal) this.lastUsed.record(principal.keyId);
    return principal;
  }

  private async lookup(secret: string): Promise<Principal | undefined> {
    const hash = hashApiKey(secret);
    const cacheKey = hash.toString('base64');
    const now = Date.now();
    const cached = this.cache.get(cacheKey);
    if (cached && cached.expiresAt > now && this.redisEvents.listening) {
      // Least recently used first out: a hit moves the entry to the back of the Map's order.
      this.cache.delete(cacheKey);
      this.cache.set(cacheKey, cached);
      return cached.principal;
    }

    const grant = await this.keys.findGrant(hash);
    const principal = grant && {
      keyId: grant.keyId,
      accountId: grant.accountId,
      limits: limitsFor(grant.plan, grant.customPerMinute, grant.customPerDay),
    };
    if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(cacheKey, { principal, expiresAt: now + this.env.API_KEY_CACHE_TTL_MS });
    return principal;
  }
}
