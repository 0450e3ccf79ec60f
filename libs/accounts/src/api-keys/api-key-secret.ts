import { hash, randomInt } from 'node:crypto';
import { AppEnv } from '@app/core';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 40 base62 characters carry 238 bits from the CSPRNG (the contract asks for at least 190). */
const RANDOM_LENGTH = 40;
const PREFIX_LENGTH = 12;
export const API_KEY_FORMAT = /^pet_(live|test)_[A-Za-z0-9]{32,128}$/;

export function keyPrefixFor(env: AppEnv): string {
  return env === AppEnv.Production ? 'pet_live_' : 'pet_test_';
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

export function generateApiKey(env: AppEnv): GeneratedApiKey {
  let random = '';
  // randomInt draws without modulo bias.
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(BASE62.length)];
  const secret = keyPrefixFor(env) + random;
  return { secret, prefix: secret.slice(0, PREFIX_LENGTH), hash: hashApiKey(secret) };
}
