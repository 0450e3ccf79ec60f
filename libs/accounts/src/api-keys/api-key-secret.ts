import { hash, randomInt } from 'node:crypto';
import { AppEnv } from '@app/core';
import type { KeyKind } from './scopes';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 40 base62 characters carry 238 bits from the CSPRNG (the contract asks for at least 190). */
const RANDOM_LENGTH = 40;
const PREFIX_LENGTH = 12;
export const API_KEY_FORMAT = /^pet_(pk_)?(live|test)_[A-Za-z0-9]{32,128}$/;
const PUBLISHABLE_KEY_PREFIX = 'pet_pk_';
const PUBLISHABLE_BEARER = /^Bearer +pet_pk_/i;

function keyPrefixFor(env: AppEnv, kind: KeyKind = 'secret'): string {
  const environment = env === AppEnv.Production ? 'live_' : 'test_';
  return kind === 'publishable' ? `${PUBLISHABLE_KEY_PREFIX}${environment}` : `pet_${environment}`;
}

/**
 * Whether a request carries a publishable key (by its form only: the bearer guard decides whether it is
 * valid). Such a request may come from any page, so its answers are readable across origins (CORS).
 */
export function carriesPublishableKey(request: { headers: { authorization?: string } }): boolean {
  return PUBLISHABLE_BEARER.test(request.headers.authorization ?? '');
}

/** SHA-256, in one call: every authenticated request hashes its key, and a Hash object costs five times more. */
export function hashApiKey(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

export interface GeneratedApiKey {
  secret: string;
  prefix: string;
  hash: Buffer;
}

export function generateApiKey(env: AppEnv, kind: KeyKind = 'secret'): GeneratedApiKey {
  let random = '';
  // randomInt draws without modulo bias.
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(BASE62.length)];
  const secret = keyPrefixFor(env, kind) + random;
  return { secret, prefix: secret.slice(0, PREFIX_LENGTH), hash: hashApiKey(secret) };
}
