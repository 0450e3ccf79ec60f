import { createHash } from 'node:crypto';
import { AppEnv } from '@app/core';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
import { API_KEY_FORMAT, generateApiKey, hashApiKey } from './api-key-secret';

describe('API key secrets', () => {
  it('prefixes keys with pet_live_ in production and pet_test_ elsewhere', () => {
    expect(generateApiKey(AppEnv.Production).secret).toMatch(/^pet_live_[A-Za-z0-9]{40}$/);
    expect(generateApiKey(AppEnv.Staging).secret).toMatch(/^pet_test_[A-Za-z0-9]{40}$/);
    expect(generateApiKey(AppEnv.Development).secret).toMatch(/^pet_test_[A-Za-z0-9]{40}$/);
  });

  it('carries at least 190 bits of randomness', () => {
    const randomChars = generateApiKey(AppEnv.Development).secret.length - 'pet_test_'.length;
    expect(randomChars * Math.log2(62)).toBeGreaterThanOrEqual(190);
  });

  it('never repeats a key', () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => generateApiKey(AppEnv.Development).secret));
    expect(secrets.size).toBe(1000);
  });

  it('draws every base62 character with the same probability: a chi-squared test that modulo bias fails', () => {
    const keys = 5000;
    const counts = new Map<string, number>();
    for (let i = 0; i < keys; i++) {
      for (const char of generateApiKey(AppEnv.Development).secret.slice('pet_test_'.length))
        counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect([...counts.keys()].sort().join('')).toBe([...BASE62].sort().join(''));
    const expected = (keys * 40) / 62;
    const chiSquared = [...counts.values()].reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    // 61 degrees of freedom: a uniform draw exceeds 150 about twice in a billion runs, while a random
    // byte taken modulo 62 (8 characters a quarter likelier) scores about 1,400 here.
    expect(chiSquared).toBeLessThan(150);
  });

  it('keeps the first 12 characters as the prefix and stores the SHA-256 hash', () => {
    const key = generateApiKey(AppEnv.Development);
    expect(key.prefix).toBe(key.secret.slice(0, 12));
    expect(key.hash).toEqual(createHash('sha256').update(key.secret).digest());
    expect(hashApiKey(key.secret)).toEqual(key.hash);
  });

  it('recognises the key format', () => {
    expect(API_KEY_FORMAT.test(generateApiKey(AppEnv.Production).secret)).toBe(true);
    expect(API_KEY_FORMAT.test('pet_test_short')).toBe(false);
    expect(API_KEY_FORMAT.test(`sk_live_${'a'.repeat(40)}`)).toBe(false);
  });
});
