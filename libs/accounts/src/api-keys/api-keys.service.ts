import { Clock, CoreSettings, Principal, ValidationFailedError } from '@app/core';
import { Injectable } from '@nestjs/common';
import { AccountEvents } from '../account-events';
import { ApiKeyNotFoundError, InsufficientScopeError } from '../accounts.errors';
import { generateApiKey } from './api-key-secret';
import { ApiKey, ApiKeysRepository } from './api-keys.repository';
import { ALL_SCOPES, GrantedScope, holdsScope, KeyKind, PUBLISHABLE_SCOPES } from './scopes';

/** An expiry at most this many calendar years ahead. */
const MAX_LIFETIME_YEARS = 2;

export interface IssuedApiKey {
  key: ApiKey;
  /** The key itself: returned to the caller once, and never stored when it is secret. */
  secret: string;
}

/** What a key is issued with; without scopes a secret key holds every power. */
export interface KeyOptions {
  kind?: KeyKind;
  scopes?: GrantedScope[];
  expiresAt?: Date;
  allowedOrigins?: string[];
}

/** What a client asks for in `POST /v1/keys`, as the DTO validated it. */
export interface KeyRequest extends Omit<KeyOptions, 'expiresAt'> {
  name?: string;
  expiresAt?: string;
}

function invalid(field: string, message: string): ValidationFailedError {
  return new ValidationFailedError(`${field} ${message}`, [{ field, message }]);
}

/** A key that expires makes only keys that expire by then: one that never expires would outlive it. */
function assertNotOutliving(caller: Principal, expiresAt: Date | undefined): void {
  if (!caller.expiresAt) return;
  const limit = caller.expiresAt.toISOString();
  if (!expiresAt) {
    throw invalid('expiresAt', `is required: this API key expires at ${limit}, and a key it makes may not outlive it`);
  }
  if (expiresAt > caller.expiresAt) {
    throw invalid('expiresAt', `must be at most ${limit}, when this API key expires`);
  }
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly events: AccountEvents,
    private readonly core: CoreSettings,
    private readonly clock: Clock,
  ) {}

  async issue(accountId: number, name: string, options: KeyOptions = {}): Promise<IssuedApiKey> {
    const kind = options.kind ?? 'secret';
    const { secret, prefix, hash } = generateApiKey(this.core.APP_ENV, kind);
    const publishable = kind === 'publishable';
    const key = await this.keys.insert({
      accountId,
      name,
      prefix,
      hash,
      kind,
      scopes: publishable ? [...PUBLISHABLE_SCOPES] : (options.scopes ?? [ALL_SCOPES]),
      expiresAt: options.expiresAt ?? null,
      allowedOrigins: publishable ? (options.allowedOrigins ?? []) : null,
      publishableKey: publishable ? secret : null,
    });
    return { key, secret };
  }

  /**
   * Issues a key the caller asked for with its own key, which can grant no more than it holds: never a
   * scope it lacks (`*` only from `*`), a publishable key only if it reads pets itself, and no key that
   * outlives it.
   */
  async issueFor(caller: Principal, request: KeyRequest): Promise<IssuedApiKey> {
    const options = this.checked(request);
    const granted = options.kind === 'publishable' ? PUBLISHABLE_SCOPES : (options.scopes ?? [ALL_SCOPES]);
    const lacking = granted.find((scope) => !holdsScope(caller.scopes, scope));
    if (lacking) {
      throw new InsufficientScopeError(
        lacking,
        options.kind === 'publishable'
          ? `Only a key that holds ${lacking} can create a publishable key.`
          : `This API key cannot grant ${lacking}, which it does not hold: a key grants no more than it has.`,
      );
    }
    assertNotOutliving(caller, options.expiresAt);
    return this.issue(caller.accountId, request.name ?? 'unnamed', options);
  }

  list(accountId: number): Promise<ApiKey[]> {
    return this.keys.listByAccount(accountId);
  }

  /**
   * Revokes a key the caller asked to revoke with its own key, which may revoke only the keys whose scopes
   * it holds itself: a restricted key cannot take a `*` key away from its account.
   */
  async revokeFor(caller: Principal, keyId: number): Promise<void> {
    const key = await this.keys.findOne(caller.accountId, keyId);
    if (!key) throw new ApiKeyNotFoundError(keyId);
    const lacking = key.scopes.find((scope) => !holdsScope(caller.scopes, scope));
    if (lacking) {
      throw new InsufficientScopeError(
        lacking,
        `This API key cannot revoke key ${keyId}, which holds ${lacking}: a key revokes only keys whose ` +
          'scopes it holds itself.',
      );
    }
    await this.revoke(caller.accountId, keyId);
  }

  /** Revokes a key of the account; other processes drop it from their caches at once. */
  async revoke(accountId: number, keyId: number): Promise<void> {
    if (!(await this.keys.revoke(accountId, keyId))) throw new ApiKeyNotFoundError(keyId);
    await this.events.announce({ type: 'key-revoked', keyId });
  }

  /** Operator action: revokes a key by id, whatever its account. */
  async revokeAny(keyId: number): Promise<void> {
    const accountId = await this.keys.findAccountId(keyId);
    if (accountId === undefined) throw new ApiKeyNotFoundError(keyId, false);
    await this.revoke(accountId, keyId);
  }

  /** The rules between fields, which the DTO checks one by one. */
  private checked(request: KeyRequest): KeyOptions {
    const publishable = request.kind === 'publishable';
    if (publishable && request.scopes) throw invalid('scopes', 'must be absent for a publishable key');
    if (publishable && !request.allowedOrigins) throw invalid('allowedOrigins', 'is required for a publishable key');
    if (!publishable && request.allowedOrigins) throw invalid('allowedOrigins', 'is for publishable keys only');
    let expiresAt: Date | undefined;
    if (request.expiresAt !== undefined) {
      expiresAt = new Date(request.expiresAt);
      const now = this.clock.now();
      const latest = new Date(now);
      latest.setUTCFullYear(now.getUTCFullYear() + MAX_LIFETIME_YEARS);
      if (!(expiresAt > now)) throw invalid('expiresAt', 'must be in the future');
      if (expiresAt > latest) throw invalid('expiresAt', `must be at most ${MAX_LIFETIME_YEARS} years ahead`);
    }
    return { kind: request.kind, scopes: request.scopes, allowedOrigins: request.allowedOrigins, expiresAt };
  }
}
