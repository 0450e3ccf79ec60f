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

/** The message every messages scenario accepts. */
export const sendMessage = (key: string): LoadRequest => ({
  method: 'POST',
  path: '/messages',
  headers: json(key),
  body: JSON.stringify({ message: 'Rex found a home' }),
});

/** The target of the `Link: <…>; rel="next"` header of a page. */
export async function nextLink(url: string, key: string): Promise<string> {
  const response = await fetch(url, { headers: bearer(key) });
  const link = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  if (response.status !== 200 || !link) throw new Error(`no next link from ${url} (${response.status})`);
  return link;
}
