import { ValidationFailedError } from '@app/core';
import { decodePetCursor, encodePetCursor } from './pet-cursor';

/** A cursor as the service writes it, with whatever it carries. */
const forged = (text: string) => Buffer.from(text).toString('base64url');

describe('pet cursors', () => {
  it.each([
    ['-createdAt', '2026-11-26T10:20:30.123456Z'],
    ['updatedAt', '2024-02-29T23:59:59.999999Z'],
    ['updatedAt', '0001-01-01T00:00:00.000000Z'],
    ['distance', '1234567.891'],
    ['distance', '1.5e-7'],
    ['distance', '0'],
  ] as const)('reads back a %s cursor at %s', (sort, key) => {
    const cursor = encodePetCursor(sort, { key, id: 42 });
    expect(decodePetCursor(sort, cursor)).toEqual({ key: sort === 'distance' ? String(Number(key)) : key, id: 42 });
  });

  it.each([
    // Shaped as the service writes them, but no instant PostgreSQL can read (22008 as the statement ran).
    ['-createdAt', 'p1|-createdAt|2026-11-96T10:00:00.000000Z|5'],
    ['updatedAt', 'p1|updatedAt|2021-02-30T24:00:00.000000Z|5'],
    ['updatedAt', 'p1|updatedAt|2021-02-28T24:00:00.000000Z|5'],
    ['updatedAt', 'p1|updatedAt|2021-13-01T00:00:00.000000Z|5'],
    ['updatedAt', 'p1|updatedAt|2021-01-01T00:60:00.000000Z|5'],
    ['updatedAt', 'p1|updatedAt|2021-01-01T00:00:60.000000Z|5'],
    ['updatedAt', 'p1|updatedAt|0000-01-01T00:00:00.000000Z|5'],
    // A double PostgreSQL cannot hold (out of range for double precision).
    ['distance', 'p1|distance|1e999|5'],
    ['distance', `p1|distance|${'9'.repeat(400)}|5`],
    // Another sort's cursor, a bad id, extra parts.
    ['updatedAt', 'p1|-createdAt|2026-11-26T10:00:00.000000Z|5'],
    ['distance', 'p1|updatedAt|2026-11-26T10:00:00.000000Z|5'],
    ['updatedAt', 'p1|updatedAt|2026-11-26T10:00:00.000000Z|99999999999999999'],
    ['updatedAt', 'p1|updatedAt|2026-11-26T10:00:00.000000Z|5|6'],
    ['updatedAt', 'p2|updatedAt|2026-11-26T10:00:00.000000Z|5'],
    ['updatedAt', 'p1|updatedAt'],
  ] as const)('refuses a forged %s cursor %s as invalid', (sort, text) => {
    expect(() => decodePetCursor(sort, forged(text))).toThrow(ValidationFailedError);
  });
});
