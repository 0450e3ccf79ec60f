import { WriteBatcher } from './write-batcher';

/** A table that stores every item of a statement, unless one of them is refused. */
function setUp() {
  const insert = jest.fn(async (items: string[]) => {
    if (items.includes('bad')) throw Object.assign(new Error('violates check constraint'), { code: '23514' });
    return items.map((item) => `row of ${item}`);
  });
  return { insert, batcher: new WriteBatcher(insert) };
}

describe('WriteBatcher', () => {
  it('inserts the rows added together with one statement, and gives each its own row', async () => {
    const { insert, batcher } = setUp();
    const rows = await Promise.all(['a', 'b', 'c'].map((item) => batcher.add(item)));
    expect(rows).toEqual(['row of a', 'row of b', 'row of c']);
    expect(insert.mock.calls).toEqual([[['a', 'b', 'c']]]);
  });

  it('fails only the item the database refuses: the others are inserted alone', async () => {
    const { insert, batcher } = setUp();
    const outcomes = await Promise.allSettled(['a', 'bad', 'c'].map((item) => batcher.add(item)));
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 'row of a' },
      { status: 'rejected', reason: expect.objectContaining({ code: '23514' }) },
      { status: 'fulfilled', value: 'row of c' },
    ]);
    expect(insert.mock.calls).toEqual([[['a', 'bad', 'c']], [['a']], [['bad']], [['c']]]);
  });

  it.each([
    ['the database is unreachable', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['the statement was cancelled, its commit uncertain', Object.assign(new Error('canceling'), { code: '57014' })],
  ])('fails every item of the batch at once, inserting none again, when %s', async (_case, failure) => {
    const { insert, batcher } = setUp();
    insert.mockRejectedValueOnce(failure);
    const outcomes = await Promise.allSettled(['a', 'b'].map((item) => batcher.add(item)));
    expect(outcomes).toEqual([
      { status: 'rejected', reason: failure },
      { status: 'rejected', reason: failure },
    ]);
    expect(insert).toHaveBeenCalledTimes(1);
    await expect(batcher.add('c')).resolves.toBe('row of c');
  });

  it('fails an item inserted alone with its own error', async () => {
    const { insert, batcher } = setUp();
    await expect(batcher.add('bad')).rejects.toMatchObject({ code: '23514' });
    expect(insert).toHaveBeenCalledTimes(1);
  });
});
