import type { Request } from 'express';
import { decodeCursor, encodeCursor, nextPageLink } from './pagination';

describe('keyset cursors', () => {
  it('round-trips an id through an opaque cursor', () => {
    const cursor = encodeCursor(123456789);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('123456789');
    expect(decodeCursor(cursor)).toBe(123456789);
  });

  it('treats a missing cursor as the first page', () => {
    expect(decodeCursor(undefined)).toBeUndefined();
  });

  it.each([
    '',
    'garbage',
    Buffer.from('v1:-5').toString('base64url'),
    Buffer.from('v1:99999999999999999').toString('base64url'),
  ])('rejects the cursor %p with validation_failed', (cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(expect.objectContaining({ code: 'validation_failed', status: 400 }));
  });

  it('builds an RFC 8288 next link that keeps the filters and drops empty ones', () => {
    const request = { path: '/v1/pets' } as Request;
    expect(nextPageLink(request, { limit: 20, status: 'sold', other: undefined }, 'abc')).toBe(
      '</v1/pets?limit=20&status=sold&cursor=abc>; rel="next"',
    );
  });
});
