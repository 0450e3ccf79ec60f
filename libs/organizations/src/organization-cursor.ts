import { ValidationFailedError } from '@app/core';
import type { OrganizationSort } from './dto/list-organizations-query.dto';
import type { OrganizationPosition } from './organizations.repository';

/** The sort keys a cursor may carry: a name (any text), an instant with microseconds, or a distance. */
const KEYS: Record<OrganizationSort, RegExp> = {
  name: /^[^\0]{1,400}$/u,
  '-createdAt': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/,
  distance: /^\d+(\.\d+)?(e[-+]?\d+)?$/,
};
const ID = /^org_[A-Za-z0-9]{1,64}$/;

/** Keyset cursors of the organisations, opaque to clients: the sort, the last one's sort key and its id. */
export function encodeOrganizationCursor(sort: OrganizationSort, position: OrganizationPosition): string {
  return Buffer.from(JSON.stringify(['o1', sort, position.key, position.id])).toString('base64url');
}

export function decodeOrganizationCursor(
  sort: OrganizationSort,
  cursor: string | undefined,
): OrganizationPosition | undefined {
  if (cursor === undefined) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const [version, cursorSort, key, id] = Array.isArray(decoded) ? decoded : [];
  if (
    version !== 'o1' ||
    cursorSort !== sort ||
    typeof key !== 'string' ||
    !KEYS[sort].test(key) ||
    typeof id !== 'string' ||
    !ID.test(id)
  ) {
    throw new ValidationFailedError('cursor is invalid: pass the one from the Link header, with the same sort', [
      { field: 'cursor', message: 'cursor is invalid' },
    ]);
  }
  return { key, id };
}
