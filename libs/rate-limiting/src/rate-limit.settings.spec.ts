import { loadSettings } from '@app/core';
import { RateLimitSettings } from './rate-limit.settings';

describe('RateLimitSettings', () => {
  it('supplies the contract’s defaults when nothing is set', () => {
    expect(loadSettings(RateLimitSettings, {})).toMatchObject({
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: 60,
      RATE_LIMIT_SIGNUP_PER_HOUR: 10,
      RATE_LIMIT_BAN_AFTER: 30,
      RATE_LIMIT_BAN_SECONDS: 600,
      RATE_LIMIT_ON_REDIS_FAILURE: 'open',
    });
  });

  it('refuses a failure mode other than open or closed', () => {
    expect(() => loadSettings(RateLimitSettings, { RATE_LIMIT_ON_REDIS_FAILURE: 'ajar' })).toThrow(
      /^ {2}RATE_LIMIT_ON_REDIS_FAILURE="ajar": /m,
    );
  });
});
