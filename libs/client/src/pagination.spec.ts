import { nextCursor, PageError, paginate } from './pagination';

describe('nextCursor', () => {
  it('takes the cursor of rel="next", resolving the link against the request URL', () => {
    const link = '</v1/pets?limit=2&status=available&cursor=djE6Mg>; rel="next"';
    expect(nextCursor(link, 'https://api.test/v1/pets?limit=2&status=available')).toBe('djE6Mg');
    expect(nextCursor('<https://other.test/v1/pets?cursor=abc>; rel=next', 'https://api.test/v1/pets')).toBe('abc');
  });

  it('ignores other relations and answers undefined on the last page', () => {
    expect(nextCursor('</v1/pets>; rel="successor-version"', 'https://api.test/v1/pets/1')).toBeUndefined();
    expect(nextCursor(null, 'https://api.test/v1/pets')).toBeUndefined();
    expect(nextCursor('</v1/pets?cursor=a>; rel="prev", </v1/pets?cursor=b>; rel="next"', 'https://api.test/')).toBe(
      'b',
    );
  });
});

describe('paginate', () => {
  const page = (data: number[], link?: string) => ({
    data,
    response: Object.assign(new Response(null, { headers: link ? { Link: link } : {} }), {}),
  });

  it('yields every item of every page, asking each page with the cursor of the previous one', async () => {
    const asked: Array<string | undefined> = [];
    const pages: Record<string, ReturnType<typeof page>> = {
      first: page([1, 2], '</v1/pets?cursor=c2>; rel="next"'),
      c2: page([3, 4], '</v1/pets?cursor=c4>; rel="next"'),
      c4: page([5]),
    };
    const items: number[] = [];
    for await (const item of paginate(async (cursor) => {
      asked.push(cursor);
      const answer = pages[cursor ?? 'first']!;
      Object.defineProperty(answer.response, 'url', { value: 'https://api.test/v1/pets' });
      return answer;
    }))
      items.push(item);
    expect(items).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toEqual([undefined, 'c2', 'c4']);
  });

  it('throws a PageError carrying the answer, its code and its message when a page fails', async () => {
    const response = new Response('{}', { status: 401 });
    const error = { code: 'unauthorized', message: 'The API key is revoked.', status: 401 };
    const thrown = paginate(async () => ({ error, response })).next();
    await expect(thrown).rejects.toBeInstanceOf(PageError);
    await expect(thrown).rejects.toMatchObject({
      response,
      error,
      code: 'unauthorized',
      message: 'A page could not be read: HTTP 401 unauthorized: The API key is revoked.',
    });
  });

  it('says only the status when the failed page did not answer an Error body', async () => {
    const response = new Response('<html>', { status: 502 });
    await expect(paginate(async () => ({ error: '<html>', response })).next()).rejects.toMatchObject({
      code: undefined,
      message: 'A page could not be read: HTTP 502.',
    });
  });
});
