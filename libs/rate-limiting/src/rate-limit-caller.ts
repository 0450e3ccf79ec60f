import type { Principal } from '@app/core';
import type { RateLimitDecision } from './rate-windows';

/** Whom a request counts against. */
export interface RateLimitCaller {
  /** `account:<id>`, `publishable:<key id>:<client address>` or `ip:<client address>`: whose counters the windows are. */
  tracker: string;
  /** The caller of a valid key: its account's windows apply, and its refusals count towards the key's ban. */
  principal?: Principal;
  /**
   * Set when the key had to be looked up: the request was counted against its client address first,
   * with this outcome (undefined when Redis could not answer and the failure policy admitted it).
   */
  paidForLookup?: { decision: RateLimitDecision | undefined };
}
