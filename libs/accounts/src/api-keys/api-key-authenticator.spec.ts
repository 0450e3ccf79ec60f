import { double } from '../../../../test/support/doubles';
import { AppEnv, AuthenticatedRequest, RedisEvents } from '@app/core';
import type { AccountEvent, AccountEvents } from '../account-events';
import { generateApiKey, hashApiKey } from './api-key-secret';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import type { ApiKeySettings } from './api-key.settings';
import type { ApiKeysRepository, KeyGrant } from './api-keys.repository';
import type { LastUsedRecorder } from './last-used-recorder';

function setUp(expiresAt: Date | null = null) {
  const grant: KeyGrant = {
    keyId: 7,
    accountId: 3,
    plan: 'pro',
    customPerMinute: null,
    customPerDay: null,
    scopes: ['pets:read'],
    allowedOrigins: null,
    expiresAt,
  };
  const secret = generateApiKey(AppEnv.Development).secret;
  // PostgreSQL knows this one key.
  const findGrant = jest.fn(async (hash: Buffer) => (hash.equals(hashApiKey(secret)) ? grant : undefined));
  let publish: (event: AccountEvent) => void = () => undefined;
  let reconnect: () => void = () => undefined;
  const redisEvents = {
    listening: true as boolean,
    onReconnect: (handler: () => void) => (reconnect = handler),
  } satisfies Partial<RedisEvents>;
  const events = {
    subscribe: (handler: (event: AccountEvent) => void) => (publish = handler),
  } satisfies Partial<AccountEvents>;
  const lastUsed = { record: jest.fn() } satisfies Partial<LastUsedRecorder>;
  const authenticator = new ApiKeyAuthenticator(
    double<ApiKeysRepository>({ findGrant }),
    double<AccountEvents>(events),
    double<RedisEvents>(redisEvents),
    double<LastUsedRecorder>(lastUsed),
    { API_KEY_CACHE_TTL_MS: 60000 } as ApiKeySettings,
  );
  authenticator.onModuleInit();
  const request = (authorization?: string) => ({ headers: { authorization } }) as AuthenticatedRequest;
  return {
    authenticator,
    findGrant,
    redisEvents,
    lastUsed,
    secret,
    request,
    publish: (e: AccountEvent) => publish(e),
    reconnect: () => reconnect(),
  };
}

describe('ApiKeyAuthenticator', () => {
  it('resolves a key to its account and plan limits, and records the use', async () => {
    const { authenticator, secret, request, lastUsed } = setUp();
    const principal = await authenticator.identify(request(`Bearer ${secret}`));
    expect(principal).toEqual({
      keyId: 7,
      accountId: 3,
      limits: { perMinute: 300, perDay: 10000 },
      scopes: ['pets:read'],
    });
    expect(lastUsed.record).toHaveBeenCalledWith(7);
  });

  it('asks PostgreSQL once per key while the cache is warm', async () => {
    const { authenticator, secret, request, findGrant } = setUp();
    await authenticator.identify(request(`Bearer ${secret}`));
    await authenticator.identify(request(`Bearer ${secret}`));
    expect(findGrant).toHaveBeenCalledTimes(1);
  });

  it('asks PostgreSQL once per unknown key while the cache is warm', async () => {
    const { authenticator, request, findGrant } = setUp();
    const unknown = generateApiKey(AppEnv.Development).secret;
    expect(await authenticator.identify(request(`Bearer ${unknown}`))).toBeUndefined();
    expect(await authenticator.identify(request(`Bearer ${unknown}`))).toBeUndefined();
    expect(findGrant).toHaveBeenCalledTimes(1);
  });

  it('never lets a flood of unknown keys push a valid one out of the cache', async () => {
    const { authenticator, secret, request, findGrant } = setUp();
    await authenticator.identify(request(`Bearer ${secret}`));
    // As many made-up keys as the cache holds keys.
    const madeUp = 100_000;
    for (let i = 0; i < madeUp; i++) {
      await authenticator.identify(request(`Bearer pet_test_${String(i).padStart(32, '0')}`));
    }
    expect(findGrant).toHaveBeenCalledTimes(1 + madeUp);
    expect(await authenticator.identify(request(`Bearer ${secret}`))).toMatchObject({ keyId: 7 });
    expect(findGrant).toHaveBeenCalledTimes(1 + madeUp);
  });

  it('identifies without PostgreSQL what it can, and says when it cannot', async () => {
    const { authenticator, secret, request, findGrant, redisEvents, lastUsed } = setUp();
    const unknown = generateApiKey(AppEnv.Development).secret;
    for (const req of [request(), request('Bearer nope')]) {
      expect(authenticator.identifyWithoutLookup(req)).toBe(true);
      expect(await authenticator.identify(req)).toBeUndefined();
    }
    for (const key of [secret, unknown]) {
      const req = request(`Bearer ${key}`);
      expect(authenticator.identifyWithoutLookup(req)).toBe(false);
      await authenticator.identify(req);
      expect(authenticator.identifyWithoutLookup(req)).toBe(true);
    }
    const cachedKey = request(`Bearer ${secret}`);
    expect(authenticator.identifyWithoutLookup(cachedKey)).toBe(true);
    expect(cachedKey.principal).toMatchObject({ keyId: 7 });
    expect(lastUsed.record).toHaveBeenCalledTimes(2);
    const cachedUnknown = request(`Bearer ${unknown}`);
    expect(authenticator.identifyWithoutLookup(cachedUnknown)).toBe(true);
    expect(cachedUnknown.principal).toBeUndefined();
    expect(findGrant).toHaveBeenCalledTimes(2);
    // Without the revocation push a valid key is asked about again; an unknown one stays unknown.
    redisEvents.listening = false;
    expect(authenticator.identifyWithoutLookup(request(`Bearer ${secret}`))).toBe(false);
    expect(authenticator.identifyWithoutLookup(request(`Bearer ${unknown}`))).toBe(true);
  });

  it('memoises the answer on the request', async () => {
    const { authenticator, secret, request, findGrant, redisEvents } = setUp();
    redisEvents.listening = false;
    const req = request(`Bearer ${secret}`);
    await authenticator.identify(req);
    await authenticator.identify(req);
    expect(findGrant).toHaveBeenCalledTimes(1);
  });

  it('never queries for a missing or malformed key', async () => {
    const { authenticator, request, findGrant } = setUp();
    expect(await authenticator.identify(request())).toBeUndefined();
    expect(await authenticator.identify(request('Bearer nope'))).toBeUndefined();
    expect(await authenticator.identify(request('Basic abc'))).toBeUndefined();
    expect(findGrant).not.toHaveBeenCalled();
  });

  it('forgets a revoked key and a changed account when told', async () => {
    const { authenticator, secret, request, findGrant, publish } = setUp();
    await authenticator.identify(request(`Bearer ${secret}`));
    publish({ type: 'key-revoked', keyId: 7 });
    await authenticator.identify(request(`Bearer ${secret}`));
    publish({ type: 'account-changed', accountId: 3 });
    await authenticator.identify(request(`Bearer ${secret}`));
    publish({ type: 'account-changed', accountId: 99 });
    await authenticator.identify(request(`Bearer ${secret}`));
    expect(findGrant).toHaveBeenCalledTimes(3);
  });

  it('bypasses the cache while revocations cannot reach it, and empties it on reconnection', async () => {
    const { authenticator, secret, request, findGrant, redisEvents, reconnect } = setUp();
    await authenticator.identify(request(`Bearer ${secret}`));
    redisEvents.listening = false;
    await authenticator.identify(request(`Bearer ${secret}`));
    expect(findGrant).toHaveBeenCalledTimes(2);
    redisEvents.listening = true;
    reconnect();
    await authenticator.identify(request(`Bearer ${secret}`));
    expect(findGrant).toHaveBeenCalledTimes(3);
  });

  it('refuses a cached key from the instant it expires, without asking PostgreSQL again', async () => {
    jest.useFakeTimers({ now: new Date('2026-06-01T12:00:00Z'), doNotFake: ['nextTick', 'setImmediate'] });
    try {
      const { authenticator, secret, request, findGrant } = setUp(new Date('2026-06-01T12:00:01Z'));
      expect(await authenticator.identify(request(`Bearer ${secret}`))).toMatchObject({ keyId: 7 });
      jest.setSystemTime(new Date('2026-06-01T12:00:01Z'));
      expect(await authenticator.identify(request(`Bearer ${secret}`))).toBeUndefined();
      expect(findGrant).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('never serves a key that had expired when it was looked up', async () => {
    const { authenticator, secret, request, findGrant } = setUp(new Date(Date.now() - 1));
    expect(await authenticator.identify(request(`Bearer ${secret}`))).toBeUndefined();
    expect(await authenticator.identify(request(`Bearer ${secret}`))).toBeUndefined();
    expect(findGrant).toHaveBeenCalledTimes(1);
  });
});
