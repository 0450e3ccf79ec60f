import { AuthenticatedRequest, Principal, RedisEvents } from '@app/core';
import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AccountEvents } from '../account-events';
import { limitsFor } from '../plans';
import { API_KEY_FORMAT, hashApiKey } from './api-key-secret';
import { ApiKeySettings } from './api-key.settings';
import { ApiKeysRepository } from './api-keys.repository';
import { LastUsedRecorder } from './last-used-recorder';

/** Enough for every active key of a large deployment (an entry is about 200 bytes). */
const MAX_CACHED_KEYS = 100_000;
/**
 * Unknown keys are remembered apart, so that made-up keys never push a real one out of the cache;
 * enough for the revoked keys clients still send, small next to the keys' own cache.
 */
const MAX_CACHED_UNKNOWN_KEYS = 10_000;
const BEARER = /^Bearer +(\S+) *$/i;
const RESOLVED = Symbol('api-key-resolved');
/** What the caches say of a key neither holds. */
const NOT_CACHED = Symbol('not-cached');

type MemoisedRequest = AuthenticatedRequest & { [RESOLVED]?: true };

interface CachedPrincipal {
  principal: Principal;
  /** When the entry must be asked about again. */
  expiresAt: number;
  /** When the key itself stops working (ms), Infinity for never: checked against the clock on every request. */
  keyExpiresAt: number;
}

/** The well-formed key the request carries, if any. */
function secretOf(request: AuthenticatedRequest): string | undefined {
  const secret = BEARER.exec(request.headers.authorization ?? '')?.[1];
  return secret && API_KEY_FORMAT.test(secret) ? secret : undefined;
}

const cacheKeyOf = (hash: Buffer) => hash.toString('base64');

/**
 * Resolves `Authorization: Bearer <key>` to the caller. Keys are looked up by their SHA-256 hash
 * (an index lookup, so there is no timing oracle on the secret) and cached per process. Revocations
 * and plan changes are pushed over Redis; while that push channel is down the cache of valid keys is
 * bypassed. Unknown keys have a small cache of their own. A lookup is a query the caller can cause
 * with any made-up key, so the rate-limit guard tries `identifyWithoutLookup` first and has the client
 * address pay for a request that needs one before it is made.
 */
@Injectable()
export class ApiKeyAuthenticator implements OnModuleInit, OnApplicationShutdown {
  private readonly keys = new Map<string, CachedPrincipal>();
  /**
   * When each unknown key may next be asked about. No event is needed to keep it true: keys are
   * random, so an unknown one does not turn up later, and a revoked one stays revoked.
   */
  private readonly unknownKeys = new Map<string, number>();

  constructor(
    private readonly apiKeys: ApiKeysRepository,
    private readonly events: AccountEvents,
    private readonly redisEvents: RedisEvents,
    private readonly lastUsed: LastUsedRecorder,
    private readonly settings: ApiKeySettings,
  ) {}

  onModuleInit(): void {
    this.events.subscribe((event) => {
      for (const [hash, { principal }] of this.keys) {
        if (
          (event.type === 'key-revoked' && principal.keyId === event.keyId) ||
          (event.type === 'account-changed' && principal.accountId === event.accountId)
        ) {
          this.keys.delete(hash);
        }
      }
    });
    // Messages may have been missed while disconnected.
    this.redisEvents.onReconnect(() => this.keys.clear());
  }

  onApplicationShutdown(): void {
    this.keys.clear();
    this.unknownKeys.clear();
  }

  /**
   * Identifies the caller as `identify` does when that takes no PostgreSQL query, and says whether it
   * could: false for a well-formed key that neither cache answers for.
   */
  identifyWithoutLookup(request: AuthenticatedRequest): boolean {
    const memo = request as MemoisedRequest;
    if (memo[RESOLVED]) return true;
    const secret = secretOf(request);
    const cached = secret ? this.cached(cacheKeyOf(hashApiKey(secret))) : undefined;
    if (cached === NOT_CACHED) return false;
    this.resolve(memo, cached);
    return true;
  }

  /** The caller, or undefined when the key is missing, malformed, unknown or revoked. Memoised per request. */
  async identify(request: AuthenticatedRequest): Promise<Principal | undefined> {
    const memo = request as MemoisedRequest;
    if (memo[RESOLVED]) return request.principal;
    const secret = secretOf(request);
    return this.resolve(memo, secret ? await this.lookup(secret) : undefined);
  }

  private resolve(request: MemoisedRequest, principal: Principal | undefined): Principal | undefined {
    request[RESOLVED] = true;
    request.principal = principal;
    if (principal) this.lastUsed.record(principal.keyId);
    return principal;
  }

  /** The cached answer for a key: its caller, undefined when it is known to be unknown, or NOT_CACHED. */
  private cached(cacheKey: string): Principal | undefined | typeof NOT_CACHED {
    const now = Date.now();
    const cached = this.keys.get(cacheKey);
    if (cached && cached.expiresAt > now && this.redisEvents.listening) {
      // Least recently used first out: a hit moves the entry to the back of the Map's order.
      this.keys.delete(cacheKey);
      this.keys.set(cacheKey, cached);
      // An expired key answers as a revoked one, at the instant it expires, whatever the cache's age.
      return cached.keyExpiresAt > now ? cached.principal : undefined;
    }
    if ((this.unknownKeys.get(cacheKey) ?? 0) > now) return undefined;
    return NOT_CACHED;
  }

  private async lookup(secret: string): Promise<Principal | undefined> {
    const hash = hashApiKey(secret);
    const cacheKey = cacheKeyOf(hash);
    const cached = this.cached(cacheKey);
    if (cached !== NOT_CACHED) return cached;

    const grant = await this.apiKeys.findGrant(hash);
    const now = Date.now();
    const expiresAt = now + this.settings.API_KEY_CACHE_TTL_MS;
    const keyExpiresAt = grant?.expiresAt?.getTime() ?? Infinity;
    // An expired key never works again: it is remembered with the unknown ones.
    if (!grant || keyExpiresAt <= now) {
      remember(this.unknownKeys, cacheKey, expiresAt, MAX_CACHED_UNKNOWN_KEYS);
      return undefined;
    }
    const principal: Principal = {
      keyId: grant.keyId,
      accountId: grant.accountId,
      limits: limitsFor(grant.plan, grant.customPerMinute, grant.customPerDay),
      scopes: grant.scopes,
      ...(grant.allowedOrigins ? { allowedOrigins: grant.allowedOrigins } : {}),
      ...(grant.expiresAt ? { expiresAt: grant.expiresAt } : {}),
    };
    remember(this.keys, cacheKey, { principal, expiresAt, keyExpiresAt }, MAX_CACHED_KEYS);
    return principal;
  }
}

/** Caches `value`, first making room by dropping the entry that has gone longest unused. */
function remember<T>(cache: Map<string, T>, key: string, value: T, capacity: number): void {
  cache.delete(key);
  if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
}
