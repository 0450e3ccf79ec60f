import { CoreSettings } from '@app/core';
import { Injectable } from '@nestjs/common';
import { AccountEvents } from '../account-events';
import { ApiKeyNotFoundError } from '../accounts.errors';
import { generateApiKey } from './api-key-secret';
import { ApiKey, ApiKeysRepository } from './api-keys.repository';

export interface IssuedApiKey {
  key: ApiKey;
  /** The secret: returned to the caller once and never stored. */
  secret: string;
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly events: AccountEvents,
    private readonly core: CoreSettings,
  ) {}

  async issue(accountId: number, name: string): Promise<IssuedApiKey> {
    const { secret, prefix, hash } = generateApiKey(this.core.APP_ENV);
    const key = await this.keys.insert({ accountId, name, prefix, hash });
    return { key, secret };
  }

  list(accountId: number): Promise<ApiKey[]> {
    return this.keys.listByAccount(accountId);
  }

  /** Revokes a key of the account; other processes drop it from their caches at once. */
  async revoke(accountId: number, keyId: number): Promise<void> {
    if (!(await this.keys.revoke(accountId, keyId))) throw new ApiKeyNotFoundError(keyId);
    await this.events.announce({ type: 'key-revoked', keyId });
  }

  /** Operator action: revokes a key by id, whatever its account. */
  async revokeAny(keyId: number): Promise<void> {
    const accountId = await this.keys.findAccountId(keyId);
    if (accountId === undefined) throw new ApiKeyNotFoundError(keyId);
    await this.revoke(accountId, keyId);
  }
}
