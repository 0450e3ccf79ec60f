import { Public, SignUpRateLimit, SkipRateLimit } from '@app/http';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { RateLimitPolicy } from './rate-limit.policy';
import { RateLimitSettings } from './rate-limit.settings';

class AccountsRoutes {
  @Public()
  @SignUpRateLimit()
  signUp(): void {}

  @Public()
  openApi(): void {}

  ownAccount(): void {}
}

@SkipRateLimit()
class HealthRoutes {
  live(): void {}
}

const routeOf = <T extends object>(controller: new () => T, handler: keyof T): ExecutionContext =>
  new ExecutionContextHost([], controller, controller.prototype[handler]);

const settings = Object.assign(new RateLimitSettings(), {
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: 5,
  RATE_LIMIT_SIGNUP_PER_HOUR: 3,
  RATE_LIMIT_MINUTE_WINDOW_SECONDS: 60,
  RATE_LIMIT_DAY_WINDOW_SECONDS: 86400,
  RATE_LIMIT_SIGNUP_WINDOW_SECONDS: 3600,
});
const policy = new RateLimitPolicy(new Reflector(), settings);
const account = {
  tracker: 'account:3',
  principal: { accountId: 3, keyId: 7, limits: { perMinute: 300, perDay: 10_000 }, scopes: ['*'] },
};
const address = { tracker: 'ip:10.0.0.1' };

describe('RateLimitPolicy', () => {
  it('gives an account its plan’s minute and day windows, keyed by the account, on any route', () => {
    const windows = [
      { name: 'minute', key: 'rate-limit:minute:{account:3}', limit: 300, seconds: 60 },
      { name: 'day', key: 'rate-limit:day:{account:3}', limit: 10_000, seconds: 86400 },
    ];
    expect(policy.windowsFor(account, routeOf(AccountsRoutes, 'ownAccount'))).toEqual(windows);
    expect(policy.windowsFor(account, undefined)).toEqual(windows);
  });

  it('gives a caller by address the keyless minute window, and on sign-up the sign-up window too', () => {
    const minute = { name: 'minute', key: 'rate-limit:minute:{ip:10.0.0.1}', limit: 5, seconds: 60 };
    expect(policy.windowsFor(address, routeOf(AccountsRoutes, 'ownAccount'))).toEqual([minute]);
    expect(policy.windowsFor(address, routeOf(AccountsRoutes, 'openApi'))).toEqual([minute]);
    expect(policy.windowsFor(address, undefined)).toEqual([minute]);
    expect(policy.windowsFor(address, routeOf(AccountsRoutes, 'signUp'))).toEqual([
      minute,
      { name: 'signup', key: 'rate-limit:signup:{ip:10.0.0.1}', limit: 3, seconds: 3600 },
    ]);
  });

  it('skips the routes of a controller marked @SkipRateLimit(), and no other', () => {
    expect(policy.skips(routeOf(HealthRoutes, 'live'))).toBe(true);
    expect(policy.skips(routeOf(AccountsRoutes, 'signUp'))).toBe(false);
    expect(policy.skips(undefined)).toBe(false);
  });

  it('takes keys on every route but the public ones, and on requests no route matched', () => {
    expect(policy.takesKeys(routeOf(AccountsRoutes, 'ownAccount'))).toBe(true);
    expect(policy.takesKeys(undefined)).toBe(true);
    expect(policy.takesKeys(routeOf(AccountsRoutes, 'signUp'))).toBe(false);
    expect(policy.takesKeys(routeOf(AccountsRoutes, 'openApi'))).toBe(false);
  });
});
