import { createHash } from 'node:crypto';
import { AppEnv } from '@app/core';
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

  it('uses every base62 character, drawn without bias', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      for (const char of generateApiKey(AppEnv.Development).secret.slice(9))
        counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect(counts.size).toBe(62);
    const expected = (2000 * 40) / 62;
    for (const count of counts.values()) expect(Math.abs(count - expected) / expected).toBeLessThan(0.25);
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
