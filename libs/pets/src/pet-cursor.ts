import { ValidationFailedError } from '@app/core';
import { decodeCursor, encodeCursor } from '@app/http';
import type { PetSort } from './dto/list-pets-query.dto';
import type { SearchPosition } from './pet-search.repository';

/** The sort keys a cursor may carry: an instant with microseconds, or a distance. */
const KEYS: Record<Exclude<PetSort, 'id'>, RegExp> = {
  '-createdAt': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/,
  updatedAt: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/,
  distance: /^\d+(\.\d+)?(e[-+]?\d+)?$/,
};

/**
 * Keyset cursors of the catalogue, opaque to clients: the id alone when sorted by id (the cursors of
 * CONTRACT 3), else the sort, the last pet's sort key and its id. A cursor of another sort is refused.
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
  const [version, cursorSort, key, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (version !== 'p1' || cursorSort !== sort || !KEYS[sort].test(key ?? '') || !/^[0-9]{1,16}$/.test(id ?? '')) {
    throw new ValidationFailedError('cursor is invalid: pass the one from the Link header, with the same sort', [
      { field: 'cursor', message: 'cursor is invalid' },
    ]);
  }
  return { key, id: Number(id) };
}
