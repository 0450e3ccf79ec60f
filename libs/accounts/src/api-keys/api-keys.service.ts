import { Environment } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AccountEvents } from '../account-events';
import { ApiKeyNotFoundError } from '../accounts.errors';
import { generateApiKey } from './api-key-secret';
import { ApiKeyEntity } from './api-key.entity';

export interface IssuedApiKey {
  key: ApiKeyEntity;
  /** The secret: returned to the caller once and never stored. */
  secret: string;
}

@Injectable()
export class ApiKeysService {
  constructor(
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    private readonly events: AccountEvents,
    private readonly env: Environment,
  ) {}

  async issue(accountId: number, name: string, manager: EntityManager = this.keys.manager): Promise<IssuedApiKey> {
    const { secret, prefix, hash } = generateApiKey(this.env.APP_ENV);
    const key = await manager.save(manager.create(ApiKeyEntity, { accountId, name, prefix, keyHash: hash }));
    return { key, secret };
  }

  list(accountId: number): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { accountId }, order: { id: 'ASC' } });
  }

  /** Revokes a key of the account; other processes drop it from their caches at once. */
  async revoke(accountId: number, keyId: number): Promise<void> {
    const result = await this.keys
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({ revokedAt: () => 'COALESCE(revoked_at, now())' })
      .where('id = :keyId AND account_id = :accountId', { keyId, accountId })
      .execute();
    if (!result.affected) throw new ApiKeyNotFoundError(keyId);
    await this.events.announce({ type: 'key-revoked', keyId });
  }

  /** Operator action: revokes a key by id, whatever its account. */
  async revokeAny(keyId: number): Promise<void> {
    const key = await this.keys.findOneBy({ id: keyId });
    if (!key) throw new ApiKeyNotFoundError(keyId);
    await this.revoke(key.accountId, keyId);
  }
}
