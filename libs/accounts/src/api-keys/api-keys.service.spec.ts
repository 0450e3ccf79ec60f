import { double } from '../../../../test/support/doubles';
import { AppEnv, type Clock, type CoreSettings, type Principal, ValidationFailedError } from '@app/core';
import type { AccountEvents } from '../account-events';
import { ApiKeyNotFoundError, InsufficientScopeError } from '../accounts.errors';
import { hashApiKey } from './api-key-secret';
import type { ApiKey, ApiKeysRepository, NewApiKey } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

const NOW = new Date('2026-06-01T12:00:00Z');
const caller = (scopes: string[]): Principal => ({
  accountId: 3,
  keyId: 1,
  limits: { perMinute: 60, perDay: 1000 },
  scopes,
});

function setUp() {
  const keys = {
    insert: jest.fn(async ({ hash: _hash, ...key }: NewApiKey): Promise<ApiKey> => ({
      id: 7,
      ...key,
      createdAt: NOW,
      lastUsedAt: null,
      revokedAt: null,
    })),
    revoke: jest.fn().mockResolvedValue(true),
    findAccountId: jest.fn().mockResolvedValue(3),
  } satisfies Partial<ApiKeysRepository>;
  const events = { announce: jest.fn().mockResolvedValue(undefined) } satisfies Partial<AccountEvents>;
  const service = new ApiKeysService(
    double<ApiKeysRepository>(keys),
    double<AccountEvents>(events),
    { APP_ENV: AppEnv.Development } as CoreSettings,
    { now: () => NOW } satisfies Partial<Clock> as Clock,
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
      kind: 'secret',
      scopes: ['*'],
      expiresAt: null,
      allowedOrigins: null,
      publishableKey: null,
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

  it('grants only scopes the calling key holds, X:write standing for X:read, and * only from *', async () => {
    const { service, keys } = setUp();
    await service.issueFor(caller(['pets:write']), { scopes: ['pets:read'] });
    await service.issueFor(caller(['*']), {});
    expect(keys.insert).toHaveBeenCalledTimes(2);
    for (const [held, asked] of [
      [['pets:read'], ['pets:write']],
      [['keys:write'], undefined],
      [['keys:write', 'pets:write'], ['*']],
    ] as const) {
      await expect(service.issueFor(caller([...held]), { scopes: asked && [...asked] })).rejects.toBeInstanceOf(
        InsufficientScopeError,
      );
    }
    expect(keys.insert).toHaveBeenCalledTimes(2);
  });

  it('issues a publishable key with pets:read and its origins only to a key that reads pets', async () => {
    const { service, keys } = setUp();
    const { secret } = await service.issueFor(caller(['pets:read', 'keys:write']), {
      kind: 'publishable',
      allowedOrigins: ['https://shelter.example'],
    });
    expect(secret).toMatch(/^pet_pk_test_[A-Za-z0-9]{40}$/);
    expect(keys.insert).toHaveBeenCalledWith(
      expect.objectContaining({
        kind: 'publishable',
        scopes: ['pets:read'],
        allowedOrigins: ['https://shelter.example'],
        publishableKey: secret,
      }),
    );
    await expect(
      service.issueFor(caller(['keys:write']), { kind: 'publishable', allowedOrigins: ['https://shelter.example'] }),
    ).rejects.toThrow('Only a key that holds pets:read can create a publishable key.');
  });

  it.each([
    [
      'scopes on a publishable key',
      { kind: 'publishable', scopes: ['pets:read'], allowedOrigins: ['https://a.example'] },
    ],
    ['a publishable key without origins', { kind: 'publishable' }],
    ['origins on a secret key', { allowedOrigins: ['https://a.example'] }],
    ['an expiry in the past', { expiresAt: '2026-06-01T11:59:59Z' }],
    ['an expiry more than 2 years ahead', { expiresAt: '2028-06-01T12:00:01Z' }],
  ] as const)('refuses %s with validation_failed', async (_case, request) => {
    const { service } = setUp();
    await expect(service.issueFor(caller(['*']), { ...request } as never)).rejects.toBeInstanceOf(
      ValidationFailedError,
    );
  });

  it('accepts an expiry exactly 2 years ahead', async () => {
    const { service, keys } = setUp();
    await service.issueFor(caller(['*']), { expiresAt: '2028-06-01T12:00:00Z' });
    expect(keys.insert).toHaveBeenCalledWith(expect.objectContaining({ expiresAt: new Date('2028-06-01T12:00:00Z') }));
  });
});
