import { WriteBatcher } from './write-batcher';

function setUp(delayMs = 10) {
  const write = jest.fn<Promise<void>, [string[]]>().mockResolvedValue(undefined);
  return { write, batcher: new WriteBatcher<string>(write, delayMs) };
}

describe('WriteBatcher', () => {
  afterEach(() => jest.useRealTimers());

  it('writes the items added within its delay in one call, then resolves each add', async () => {
    jest.useFakeTimers();
    const { write, batcher } = setUp();
    const added = ['a', 'b', 'c'].map((item) => batcher.add(item));
    await jest.advanceTimersByTimeAsync(9);
    expect(write).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    await Promise.all(added);
    expect(write.mock.calls).toEqual([[['a', 'b', 'c']]]);
  });

  it('writes one batch at a time: what arrives meanwhile goes in the next one', async () => {
    const { write, batcher } = setUp(0);
    let finishFirst!: () => void;
    write.mockImplementationOnce(() => new Promise<void>((resolve) => (finishFirst = resolve)));
    const first = batcher.add('a');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = [batcher.add('b'), batcher.add('c')];
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(write).toHaveBeenCalledTimes(1);
    finishFirst();
    await Promise.all([first, ...second]);
    expect(write.mock.calls).toEqual([[['a']], [['b', 'c']]]);
  });

  it('flush writes at once and resolves when the write is done', async () => {
    const { write, batcher } = setUp(60_000);
    void batcher.add('a');
    await batcher.flush();
    expect(write.mock.calls).toEqual([[['a']]]);
    await expect(batcher.flush()).resolves.toBeUndefined();
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('resolves each add with its own item’s result', async () => {
    const batcher = new WriteBatcher<string, string>(async (items) => items.map((item) => item.toUpperCase()), 0);
    await expect(Promise.all(['a', 'b', 'c'].map((item) => batcher.add(item)))).resolves.toEqual(['A', 'B', 'C']);
  });

  it('rejects every add of a batch whose write gave a result short', async () => {
    const batcher = new WriteBatcher<string, string>(async () => ['A'], 0);
    const outcomes = await Promise.allSettled(['a', 'b'].map((item) => batcher.add(item)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
  });

  it('rejects every add of a failed batch, and goes on with the next', async () => {
    const { write, batcher } = setUp(0);
    write.mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
    const failed = [batcher.add('a'), batcher.add('b')];
    for (const add of failed) await expect(add).rejects.toThrow('ECONNREFUSED');
    await expect(batcher.add('c')).resolves.toBeUndefined();
    expect(write.mock.calls).toEqual([[['a', 'b']], [['c']]]);
  });
});
