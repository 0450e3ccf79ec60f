import { double } from '../../../test/support/doubles';
import type { Request, Response } from 'express';
import { decodeCursor, encodeCursor, linkNextPage, nextPageLink, toQueryInt } from './pagination';

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
    const request = { path: '/v1/pets' } satisfies Partial<Request> as Request;
    expect(nextPageLink(request, { limit: 20, status: 'sold', other: undefined }, 'abc')).toBe(
      '</v1/pets?limit=20&status=sold&cursor=abc>; rel="next"',
    );
  });

  it('puts the filters in the order of their names and the cursor last, whatever order they came in', () => {
    const request = { path: '/v1/pets' } satisfies Partial<Request> as Request;
    const links = [
      { cursor: 'old', tag: 'calm', limit: 5, categoryId: 2 },
      { limit: 5, categoryId: 2, cursor: 'old', tag: 'calm' },
    ].map((filters) => nextPageLink(request, filters, 'next'));
    expect(links).toEqual(Array(2).fill('</v1/pets?categoryId=2&limit=5&tag=calm&cursor=next>; rel="next"'));
  });

  it('sets the Link header only when another page follows', () => {
    const request = { path: '/v1/messages' } satisfies Partial<Request> as Request;
    const response = { setHeader: jest.fn() } satisfies Partial<Response>;
    linkNextPage(request, double<Response>(response), { limit: 2 }, undefined);
    expect(response.setHeader).not.toHaveBeenCalled();
    linkNextPage(request, double<Response>(response), { limit: 2 }, 41);
    expect(response.setHeader.mock.calls).toEqual([
      ['Link', `</v1/messages?limit=2&cursor=${encodeCursor(41)}>; rel="next"`],
    ]);
  });
});

describe('toQueryInt', () => {
  it.each([
    ['20', 20],
    ['-5', -5],
    ['1234567890123456', 1234567890123456],
  ])('reads the plain decimal %p as %p', (value, expected) => {
    expect(toQueryInt({ value })).toBe(expected);
  });

  it.each(['0x10', '1e3', ' 5', '5 ', '', '12345678901234567', '--5', '5-'])(
    'leaves %p as text, for validation to refuse',
    (value) => {
      expect(toQueryInt({ value })).toBe(value);
    },
  );

  it('leaves a value that is not text as it is', () => {
    expect(toQueryInt({ value: ['1', '2'] })).toEqual(['1', '2']);
  });
});
