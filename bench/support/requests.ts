import type { LoadRequest } from './load';

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
export const json = (key: string) => ({ ...bearer(key), 'Content-Type': 'application/json' });

/** The creation every `create-pet` scenario sends, the peer's included. */
export const createPet = (key: string): LoadRequest => ({
  method: 'POST',
  path: '/v1/pets',
  headers: json(key),
  body: JSON.stringify({ name: 'Bench', categoryId: 2, status: 'available' }),
});
