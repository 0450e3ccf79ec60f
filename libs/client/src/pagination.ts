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

/** What an Error body says: its `code` and `message`, when the answer had them. */
function errorBody(error: unknown): { code?: string; message?: string } {
  if (typeof error !== 'object' || error === null) return {};
  const { code, message } = error as Record<string, unknown>;
  return {
    ...(typeof code === 'string' && { code }),
    ...(typeof message === 'string' && { message }),
  };
}

/**
 * Thrown when a page cannot be read; carries the answer, and the Error body's `code` (`undefined` when the
 * body was not one) so that callers can branch on it as on any other operation's error.
 */
export class PageError extends Error {
  readonly code?: string;

  constructor(
    readonly response: Response,
    readonly error: unknown,
  ) {
    const { code, message } = errorBody(error);
    super(
      `A page could not be read: HTTP ${response.status}${code ? ` ${code}` : ''}${message ? `: ${message}` : '.'}`,
    );
    this.name = 'PageError';
    this.code = code;
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
