import { double } from '../../../test/support/doubles';
import { Principal, ServiceUnavailableError } from '@app/core';
import { Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RateLimitCounter } from './rate-limit.counter';
import { RateLimitPolicy } from './rate-limit.policy';
import { RateLimitSettings } from './rate-limit.settings';
import type { RateLimitStore } from './rate-limit.store';
import { RateLimitDecision, WindowSpec, WindowState } from './rate-windows';

const principal: Principal = { accountId: 3, keyId: 7, limits: { perMinute: 60, perDay: 1000 }, scopes: ['*'] };
const account = { tracker: 'account:3', principal };
const address = { tracker: 'ip:10.0.0.1' };
const addressWindow: WindowState = {
  name: 'minute',
  key: 'rate-limit:minute:{ip:10.0.0.1}',
  limit: 60,
  seconds: 60,
  count: 4,
  resetAt: 1_800_000_060,
};
const paid = (admitted: boolean): RateLimitDecision => ({ admitted, banMs: 0, nowMs: 0, windows: [addressWindow] });
const redisDown = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

function setUp(onRedisFailure: 'open' | 'closed' = 'open', consume = jest.fn(async () => paid(true))) {
  const settings = Object.assign(new RateLimitSettings(), { RATE_LIMIT_ON_REDIS_FAILURE: onRedisFailure });
  const policy = new RateLimitPolicy(new Reflector(), settings);
  const counter = new RateLimitCounter(policy, double<RateLimitStore>({ consume }), settings);
  const windowKeys = () => consume.mock.calls.map(([windows]: WindowSpec[][]) => windows.map((window) => window.key));
  return { counter, consume, windowKeys };
}

describe('RateLimitCounter', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('counts an account in its windows, its refusals towards the key’s ban, and an address in its own', async () => {
    const { counter, consume, windowKeys } = setUp();
    await counter.count(account);
    await counter.count(address);
    expect(windowKeys()).toEqual([
      ['rate-limit:minute:{account:3}', 'rate-limit:day:{account:3}'],
      ['rate-limit:minute:{ip:10.0.0.1}'],
    ]);
    expect(consume.mock.calls.map((call: unknown[]) => call.slice(1))).toEqual([
      [7, undefined],
      [undefined, undefined],
    ]);
  });

  it('counts a looked-up valid key against its account and gives the address back what it paid, in one step', async () => {
    const { counter, consume, windowKeys } = setUp();
    await counter.count({ ...account, paidForLookup: { decision: paid(true) } });
    expect(windowKeys()).toEqual([['rate-limit:minute:{account:3}', 'rate-limit:day:{account:3}']]);
    expect(consume).toHaveBeenCalledWith(expect.any(Array), 7, [addressWindow]);
  });

  it('answers with what the address paid, without asking again, when the key was unknown or the address refused', async () => {
    const { counter, consume } = setUp();
    expect(await counter.count({ ...address, paidForLookup: { decision: paid(true) } })).toEqual(paid(true));
    expect(await counter.count({ ...address, paidForLookup: { decision: paid(false) } })).toEqual(paid(false));
    expect(consume).not.toHaveBeenCalled();
  });

  it('does not ask Redis a second time for a key whose lookup Redis could not count', async () => {
    const { counter, consume } = setUp();
    expect(await counter.count({ ...account, paidForLookup: { decision: undefined } })).toBeUndefined();
    expect(consume).not.toHaveBeenCalled();
  });

  it('admits without a decision when Redis is down and the policy is open, and warns once per interval', async () => {
    const { counter } = setUp('open', jest.fn().mockRejectedValue(redisDown));
    expect(await counter.count(account)).toBeUndefined();
    expect(await counter.count(account)).toBeUndefined();
    expect(Logger.prototype.warn).toHaveBeenCalledTimes(1);
  });

  it('answers 503 when Redis is down and the policy is closed', async () => {
    const { counter } = setUp('closed', jest.fn().mockRejectedValue(redisDown));
    await expect(counter.count(account)).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('lets any other failure through', async () => {
    const { counter } = setUp('open', jest.fn().mockRejectedValue(new Error('script bug')));
    await expect(counter.count(account)).rejects.toThrow('script bug');
  });
});
