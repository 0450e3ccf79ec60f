import { IntegerSetting } from '@app/core';
import { IsIn, IsInt, Min } from 'class-validator';

/** Limits for callers without a key, bans, window lengths, and what to do when Redis cannot answer. */
export class RateLimitSettings {
  /** Limit for requests without a valid key, per client IP address and minute window. */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  RATE_LIMIT_ANONYMOUS_PER_MINUTE = 60;

  /**
   * Limit for requests with a publishable key, per key, client address and minute window: never counted
   * against the key's account, whose visitors must not spend its plan.
   */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  RATE_LIMIT_PUBLISHABLE_PER_MINUTE = 120;

  /** Sign-ups per client IP address and hour window. */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  RATE_LIMIT_SIGNUP_PER_HOUR = 10;

  /** Rejected requests within one minute after which a key is banned. */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  RATE_LIMIT_BAN_AFTER = 30;

  @IntegerSetting()
  @IsInt()
  @Min(1)
  RATE_LIMIT_BAN_SECONDS = 600;

  /** Window lengths; shortened only by tests that need to cross a window. */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  RATE_LIMIT_MINUTE_WINDOW_SECONDS = 60;

  @IntegerSetting()
  @IsInt()
  @Min(1)
  RATE_LIMIT_DAY_WINDOW_SECONDS = 86400;

  @IntegerSetting()
  @IsInt()
  @Min(1)
  RATE_LIMIT_SIGNUP_WINDOW_SECONDS = 3600;

  /** What the limiter does when Redis cannot answer: `open` admits (and logs), `closed` answers 503. */
  @IsIn(['open', 'closed'])
  RATE_LIMIT_ON_REDIS_FAILURE: 'open' | 'closed' = 'open';
}
