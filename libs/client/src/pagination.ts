/** One page of a list operation, as openapi-fetch answers it. */
export interface PageResult<T> {
  data?: T[];
  error?: unknown;
  response: Response;
}

/**
 * The `cursor` of the next page from an RFC 8288 `Link` header, or undefined on the last page. The link's
 * target is resolved against the URL of the request, as RFC 8288 says, so it is right whatever base URL the
 * client was given.
 */
export function nextCursor(link: string | null, requestUrl: string): string | undefined {
  for (const part of link?.split(',') ?? []) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (!match || !/(^|;)\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/.test(match[2]!)) continue;
    return new URL(match[1]!, requestUrl).searchParams.get('cursor') ?? undefined;
  }
  return undefined;
}

/** Thrown when a page cannot be read; carries the answer. */
export class PageError extends Error {
  constructor(
    readonly response: Response,
    readonly error: unknown,
  ) {
    super(`A page could not be read: HTTP ${response.status}.`);
    this.name = 'PageError';
  }
}

/**
 * Every item of a paginated list, page after page, following `Link: rel="next"`:
 * `for await (const pet of paginate((cursor) => client.api.GET('/pets', { params: { query: { cursor } } })))`.
 */
export async function* paginate<T>(page: (cursor?: string) => Promise<PageResult<T>>): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const { data, error, response } = await page(cursor);
    if (!data) throw new PageError(response, error);
    yield* data;
    cursor = nextCursor(response.headers.get('Link'), response.url);
  } while (cursor !== undefined);
}
