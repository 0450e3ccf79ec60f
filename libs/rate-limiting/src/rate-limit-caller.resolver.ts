import { ApiKeyAuthenticator } from '@app/accounts';
import { AuthenticatedRequest, Principal } from '@app/core';
import { ExecutionContext, Injectable } from '@nestjs/common';
import { clientAddress } from './client-address';
import { RateLimitCounter } from './rate-limit.counter';
import { RateLimitPolicy } from './rate-limit.policy';
import { RateLimitDecision } from './rate-windows';

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

/**
 * The caller, recorded on the request for its log line. A publishable key is in every visitor's browser,
 * so its requests count per key and client address (`publishable:<key id>:<address>`), never against
 * the account: a site's visitors cannot spend its owner's limits, nor one visitor the others'.
 */
function callerOf(request: AuthenticatedRequest, principal?: Principal): RateLimitCaller {
  const address = clientAddress(request.ip);
  let tracker = `ip:${address}`;
  if (principal)
    tracker = principal.allowedOrigins ? `publishable:${principal.keyId}:${address}` : `account:${principal.accountId}`;
  request.rateLimitCaller = tracker;
  return { tracker, principal };
}

/**
 * Resolves whom a request counts against: the account of a valid API key (all its keys share the
 * quota), else the client address. Only the public methods of the authenticator are used, and a key
 * that would cost a PostgreSQL query is paid for first (see `lookUpPaidByAddress`).
 */
@Injectable()
export class RateLimitCallerResolver {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly policy: RateLimitPolicy,
    private readonly counter: RateLimitCounter,
  ) {}

  /** The caller; a promise only when its key has to be looked up. */
  resolve(request: AuthenticatedRequest, route?: ExecutionContext): RateLimitCaller | Promise<RateLimitCaller> {
    if (!this.policy.takesKeys(route)) return callerOf(request);
    if (this.authenticator.identifyWithoutLookup(request)) return callerOf(request, request.principal);
    return this.lookUpPaidByAddress(request, route);
  }

  /**
   * A key no cache knows costs a PostgreSQL query, and anyone can make keys up: the request is first
   * counted against its client address as a keyless one, and a caller over that limit is refused
   * before the query is made. When the key is valid, the counter gives the address its count back.
   */
  private async lookUpPaidByAddress(request: AuthenticatedRequest, route?: ExecutionContext): Promise<RateLimitCaller> {
    const address = callerOf(request);
    const paidForLookup = { decision: await this.counter.count(address, route) };
    if (paidForLookup.decision?.admitted === false) return { ...address, paidForLookup };
    const principal = await this.authenticator.identify(request);
    return { ...(principal ? callerOf(request, principal) : address), paidForLookup };
  }
}
