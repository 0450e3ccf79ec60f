import { AppEnv, type CoreSettings } from '@app/core';
import type { AccountEvents } from '../account-events';
import { ApiKeyNotFoundError } from '../accounts.errors';
import { hashApiKey } from './api-key-secret';
import type { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

function setUp() {
  const keys = {
    insert: jest.fn(async (key: { accountId: number; name: string; prefix: string }) => ({ id: 7, ...key })),
    revoke: jest.fn().mockResolvedValue(true),
    findAccountId: jest.fn().mockResolvedValue(3),
  };
  const events = { announce: jest.fn().mockResolvedValue(undefined) };
  const service = new ApiKeysService(
    keys as unknown as ApiKeysRepository,
    events as unknown as AccountEvents,
    { APP_ENV: AppEnv.Development } as CoreSettings,
  );
  return { service, keys, events };
}

describe('ApiKeysService', () => {
  it('stores only the hash and prefix of a new key, and gives its secret back once', async () => {
    const { service, keys } = setUp();
    const { key, secret } = await service.issue(3, 'ci');
    expect(keys.insert).toHaveBeenCalledWith({
      accountId: 3,
      name: 'ci',
      prefix: secret.slice(0, 12),
      hash: hashApiKey(secret),
    });
    expect(key).toMatchObject({ id: 7, accountId: 3, name: 'ci' });
  });

  it('announces a revocation to every process', async () => {
    const { service, keys, events } = setUp();
    await service.revoke(3, 7);
    expect(keys.revoke).toHaveBeenCalledWith(3, 7);
    expect(events.announce).toHaveBeenCalledWith({ type: 'key-revoked', keyId: 7 });
  });

  it('answers a key of another account with not_found, announcing nothing', async () => {
    const { service, keys, events } = setUp();
    keys.revoke.mockResolvedValue(false);
    await expect(service.revoke(4, 7)).rejects.toBeInstanceOf(ApiKeyNotFoundError);
    expect(events.announce).not.toHaveBeenCalled();
  });

  it('revokes any account’s key for the operator, and answers an unknown key with not_found', async () => {
    const { service, keys } = setUp();
    await service.revokeAny(7);
    expect(keys.revoke).toHaveBeenCalledWith(3, 7);
    keys.findAccountId.mockResolvedValue(undefined);
    await expect(service.revokeAny(8)).rejects.toBeInstanceOf(ApiKeyNotFoundError);
  });
});
