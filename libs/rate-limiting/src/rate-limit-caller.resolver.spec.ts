import { double } from '../../../test/support/doubles';
import type { ApiKeyAuthenticator } from '@app/accounts';
import { AuthenticatedRequest, Principal } from '@app/core';
import { Public } from '@app/http';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { RateLimitCallerResolver } from './rate-limit-caller.resolver';
import type { RateLimitCounter } from './rate-limit.counter';
import { RateLimitPolicy } from './rate-limit.policy';
import { RateLimitSettings } from './rate-limit.settings';
import { RateLimitDecision } from './rate-windows';

class Routes {
  @Public()
  signUp(): void {}

  pets(): void {}
}
const routeOf = (handler: keyof Routes): ExecutionContext =>
  new ExecutionContextHost([], Routes, Routes.prototype[handler]);

const principal: Principal = { accountId: 3, keyId: 7, limits: { perMinute: 60, perDay: 1000 }, scopes: ['*'] };
const decisionOf = (admitted: boolean): RateLimitDecision => ({ admitted, banMs: 0, nowMs: 0, windows: [] });

/**
 * The authenticator's two public methods, faked: `cached` is what its caches know of the key (a
 * caller, undefined for a key known to be unknown, or 'not cached'), `stored` what PostgreSQL knows.
 * The counter answers for the address as `address` says (`unanswered`: Redis failed, the request admitted).
 */
function setUp({
  cached = undefined as Principal | undefined | 'not cached',
  stored = undefined as Principal | undefined,
  address = 'room' as 'room' | 'full' | 'unanswered',
} = {}) {
  const addressDecision = address === 'unanswered' ? undefined : decisionOf(address === 'room');
  const steps: string[] = [];
  const authenticator = {
    identifyWithoutLookup: jest.fn((request: AuthenticatedRequest) => {
      if (cached === 'not cached') return false;
      request.principal = cached;
      return true;
    }),
    identify: jest.fn(async (request: AuthenticatedRequest) => {
      steps.push('lookup');
      request.principal = stored;
      return stored;
    }),
  } satisfies Partial<ApiKeyAuthenticator>;
  const counter = {
    count: jest.fn(async ({ tracker }: { tracker: string }) => {
      steps.push(`count ${tracker}`);
      return addressDecision;
    }),
  } satisfies Partial<RateLimitCounter>;
  const policy = new RateLimitPolicy(new Reflector(), new RateLimitSettings());
  const resolver = new RateLimitCallerResolver(
    double<ApiKeyAuthenticator>(authenticator),
    policy,
    double<RateLimitCounter>(counter),
  );
  const request = {
    ip: '::ffff:10.0.0.1',
    headers: { authorization: 'Bearer some-key' },
  } satisfies Partial<AuthenticatedRequest> as AuthenticatedRequest;
  return { resolver, authenticator, counter, steps, request };
}

describe('RateLimitCallerResolver', () => {
  it('resolves a cached valid key to its account, without counting or a lookup', async () => {
    const { resolver, counter, authenticator, request } = setUp({ cached: principal });
    expect(await resolver.resolve(request, routeOf('pets'))).toEqual({ tracker: 'account:3', principal });
    expect(request.rateLimitCaller).toBe('account:3');
    expect(counter.count).not.toHaveBeenCalled();
    expect(authenticator.identify).not.toHaveBeenCalled();
  });

  it('resolves no key, or a key known to be unknown, to the normalised client address', async () => {
    const { resolver, counter, request } = setUp({ cached: undefined });
    expect(await resolver.resolve(request, routeOf('pets'))).toEqual({ tracker: 'ip:10.0.0.1' });
    expect(request.rateLimitCaller).toBe('ip:10.0.0.1');
    expect(counter.count).not.toHaveBeenCalled();
  });

  it('resolves a caller on a public route to its address without looking at its key', async () => {
    const { resolver, authenticator, request } = setUp({ cached: principal });
    expect(await resolver.resolve(request, routeOf('signUp'))).toEqual({ tracker: 'ip:10.0.0.1' });
    expect(authenticator.identifyWithoutLookup).not.toHaveBeenCalled();
  });

  it('has the address pay for looking up an uncached key first, and resolves a valid one to its account', async () => {
    const { resolver, steps, request } = setUp({ cached: 'not cached', stored: principal });
    const caller = await resolver.resolve(request, routeOf('pets'));
    expect(steps).toEqual(['count ip:10.0.0.1', 'lookup']);
    expect(caller).toEqual({ tracker: 'account:3', principal, paidForLookup: { decision: decisionOf(true) } });
    expect(request.rateLimitCaller).toBe('account:3');
  });

  it('resolves an uncached key that turns out unknown to the address that paid for its lookup', async () => {
    const { resolver, steps, request } = setUp({ cached: 'not cached', stored: undefined });
    const caller = await resolver.resolve(request, undefined);
    expect(steps).toEqual(['count ip:10.0.0.1', 'lookup']);
    expect(caller).toEqual({ tracker: 'ip:10.0.0.1', paidForLookup: { decision: decisionOf(true) } });
  });

  it('makes no lookup for an address over its limit', async () => {
    const { resolver, steps, request } = setUp({ cached: 'not cached', address: 'full' });
    const caller = await resolver.resolve(request, routeOf('pets'));
    expect(steps).toEqual(['count ip:10.0.0.1']);
    expect(caller).toEqual({ tracker: 'ip:10.0.0.1', paidForLookup: { decision: decisionOf(false) } });
  });

  it('still looks the key up when Redis could not count the address and the failure policy admitted it', async () => {
    const { resolver, steps, request } = setUp({ cached: 'not cached', stored: principal, address: 'unanswered' });
    const caller = await resolver.resolve(request, routeOf('pets'));
    expect(steps).toEqual(['count ip:10.0.0.1', 'lookup']);
    expect(caller).toEqual({ tracker: 'account:3', principal, paidForLookup: { decision: undefined } });
  });
});
