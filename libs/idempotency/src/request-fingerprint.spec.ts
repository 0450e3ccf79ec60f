import { createHash } from 'node:crypto';
import { requestFingerprint } from './request-fingerprint';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

describe('requestFingerprint', () => {
  it('is the SHA-256 of the method, the path and the JSON body with sorted keys', () => {
    expect(requestFingerprint('POST', '/v1/pets', { name: 'Rex', categoryId: 2 })).toEqual(
      sha256('POST /v1/pets\n{"categoryId":2,"name":"Rex"}'),
    );
  });

  it('ignores the order of keys, at every depth and inside arrays', () => {
    const one = { b: 1, a: { d: [{ y: 1, x: 2 }], c: null } };
    const other = { a: { c: null, d: [{ x: 2, y: 1 }] }, b: 1 };
    expect(requestFingerprint('POST', '/v1/pets', one)).toEqual(requestFingerprint('POST', '/v1/pets', other));
    expect(requestFingerprint('POST', '/v1/pets', one)).toEqual(
      sha256('POST /v1/pets\n{"a":{"c":null,"d":[{"x":2,"y":1}]},"b":1}'),
    );
  });

  it('keeps the order of array items', () => {
    expect(requestFingerprint('POST', '/v1/pets', { tags: ['a', 'b'] })).not.toEqual(
      requestFingerprint('POST', '/v1/pets', { tags: ['b', 'a'] }),
    );
  });

  it('tells apart requests that differ in method, path or body', () => {
    const body = { name: 'Rex' };
    const print = requestFingerprint('POST', '/v1/pets', body);
    expect(requestFingerprint('PUT', '/v1/pets', body)).not.toEqual(print);
    expect(requestFingerprint('POST', '/v1/keys', body)).not.toEqual(print);
    expect(requestFingerprint('POST', '/v1/pets', { name: 'Max' })).not.toEqual(print);
  });

  it('fingerprints a request without a body as a null body, and keeps falsy values as they are', () => {
    expect(requestFingerprint('POST', '/v1/keys', undefined)).toEqual(sha256('POST /v1/keys\nnull'));
    expect(requestFingerprint('POST', '/v1/keys', { a: 0, b: '', c: false })).toEqual(
      sha256('POST /v1/keys\n{"a":0,"b":"","c":false}'),
    );
  });
});
