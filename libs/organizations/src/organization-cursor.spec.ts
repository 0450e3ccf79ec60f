import { ValidationFailedError } from '@app/core';
import { decodeOrganizationCursor, encodeOrganizationCursor } from './organization-cursor';

/** A cursor as the service writes it, with whatever it carries. */
const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const ID = 'org_0123456789abcdef0123';

describe('organisation cursors', () => {
  it.each([
    ['name', 'Tierheim Berlin'],
    ['name', 'Ümlaut & Co. “Zuhause”'],
    ['-createdAt', '2026-11-26T10:20:30.123456Z'],
    ['distance', '1234.5'],
    ['distance', '1.5e-7'],
  ] as const)('reads back a %s cursor at %s', (sort, key) => {
    expect(decodeOrganizationCursor(sort, encodeOrganizationCursor(sort, { key, id: ID }))).toEqual({ key, id: ID });
  });

  it('reads no position from no cursor', () => {
    expect(decodeOrganizationCursor('name', undefined)).toBeUndefined();
  });

  it.each([
    ['another sort’s', encodeOrganizationCursor('name', { key: 'Tierheim', id: ID })],
    ['a time without microseconds', forged(['o1', '-createdAt', '2026-11-26T10:20:30.123Z', ID])],
    ['a negative distance', forged(['o1', 'distance', '-1', ID])],
    ['an id of another kind', forged(['o1', '-createdAt', '2026-11-26T10:20:30.123456Z', '42'])],
    ['another version', forged(['o2', '-createdAt', '2026-11-26T10:20:30.123456Z', ID])],
    ['not JSON', Buffer.from('{').toString('base64url')],
    ['not a list', forged({ sort: '-createdAt' })],
  ])('refuses %s cursor as validation_failed', (_case, cursor) => {
    expect(() => decodeOrganizationCursor('-createdAt', cursor)).toThrow(ValidationFailedError);
  });

  it('refuses a name cursor with a NUL in its key', () => {
    expect(() => decodeOrganizationCursor('name', forged(['o1', 'name', 'a\0b', ID]))).toThrow(ValidationFailedError);
  });
});
