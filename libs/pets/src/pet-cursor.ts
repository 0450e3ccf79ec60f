import { ValidationFailedError } from '@app/core';
import { decodeCursor, encodeCursor } from '@app/http';
import type { PetSort } from './dto/list-pets-query.dto';
import type { SearchPosition } from './pet-search.repository';

const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

/**
 * An instant as the service writes it (microseconds, UTC), if it names a real one PostgreSQL can read: the
 * shape alone lets through a 30 February or a year 0, which PostgreSQL refuses (22008) as the statement runs.
 * Milliseconds round-trip through Date; the last three digits are the microseconds the shape checked.
 */
function instantKey(key: string): string | undefined {
  if (!INSTANT.test(key) || key.startsWith('0000')) return undefined;
  const milliseconds = `${key.slice(0, 23)}Z`;
  const date = new Date(milliseconds);
  return !Number.isNaN(date.getTime()) && date.toISOString() === milliseconds ? key : undefined;
}

/** A distance key: a finite, non-negative double, written back as JavaScript prints it (PostgreSQL reads that). */
function distanceKey(key: string): string | undefined {
  const distance = /^\d+(\.\d+)?(e[-+]?\d+)?$/.test(key) ? Number(key) : NaN;
  return Number.isFinite(distance) ? String(distance) : undefined;
}

/** Per sort, the key a cursor carries, read back as the statement's parameter, or undefined if it is not one. */
const KEYS: Record<Exclude<PetSort, 'id'>, (key: string) => string | undefined> = {
  '-createdAt': instantKey,
  updatedAt: instantKey,
  distance: distanceKey,
};

/**
 * Keyset cursors of the catalogue, opaque to clients: the id alone when sorted by id (so the
 * links stay short), else the sort, the last pet's sort key and its id. A cursor of another sort is refused.
 */
export function encodePetCursor(sort: PetSort, position: SearchPosition): string {
  if (sort === 'id') return encodeCursor(position.id);
  return Buffer.from(`p1|${sort}|${position.key}|${position.id}`).toString('base64url');
}

export function decodePetCursor(sort: PetSort, cursor: string | undefined): SearchPosition | undefined {
  if (sort === 'id') {
    const id = decodeCursor(cursor);
    return id === undefined ? undefined : { id };
  }
  if (cursor === undefined) return undefined;
  const [version, cursorSort, text, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const key = cursorSort === sort && text !== undefined ? KEYS[sort](text) : undefined;
  const position = /^[0-9]{1,16}$/.test(id ?? '') ? Number(id) : NaN;
  if (version !== 'p1' || key === undefined || !Number.isSafeInteger(position) || rest.length > 0) {
    throw new ValidationFailedError('cursor is invalid: pass the one from the Link header, with the same sort', [
      { field: 'cursor', message: 'cursor is invalid' },
    ]);
  }
  return { key, id: position };
}
