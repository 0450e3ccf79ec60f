import { Batcher } from './batcher';

function setUp(delayMs = 10) {
  const run = jest.fn<Promise<void>, [string[]]>().mockResolvedValue(undefined);
  return { run, batcher: new Batcher<string>(run, delayMs) };
}

describe('Batcher', () => {
  afterEach(() => jest.useRealTimers());

  it('runs the items added within its delay in one call, then resolves each add', async () => {
    jest.useFakeTimers();
    const { run, batcher } = setUp();
    const added = ['a', 'b', 'c'].map((item) => batcher.add(item));
    await jest.advanceTimersByTimeAsync(9);
    expect(run).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    await Promise.all(added);
    expect(run.mock.calls).toEqual([[['a', 'b', 'c']]]);
  });

  it('runs one batch at a time: what arrives meanwhile goes in the next one', async () => {
    const { run, batcher } = setUp(0);
    let finishFirst!: () => void;
    run.mockImplementationOnce(() => new Promise<void>((resolve) => (finishFirst = resolve)));
    const first = batcher.add('a');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = [batcher.add('b'), batcher.add('c')];
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(run).toHaveBeenCalledTimes(1);
    finishFirst();
    await Promise.all([first, ...second]);
    expect(run.mock.calls).toEqual([[['a']], [['b', 'c']]]);
  });

  it('starts a full batch at once, and gathers what follows into the next, which keeps its own delay', async () => {
    jest.useFakeTimers();
    const run = jest.fn<Promise<void>, [string[]]>().mockResolvedValue(undefined);
    const batcher = new Batcher<string>(run, 10, 2);
    const added = ['a', 'b', 'c', 'd', 'e'].map((item) => batcher.add(item));
    await jest.advanceTimersByTimeAsync(0);
    expect(run.mock.calls).toEqual([[['a', 'b']], [['c', 'd']]]);
    await jest.advanceTimersByTimeAsync(10);
    await Promise.all(added);
    expect(run.mock.calls).toEqual([[['a', 'b']], [['c', 'd']], [['e']]]);
  });

  it('flush runs at once and resolves when the batch is done', async () => {
    const { run, batcher } = setUp(60_000);
    void batcher.add('a');
    await batcher.flush();
    expect(run.mock.calls).toEqual([[['a']]]);
    await expect(batcher.flush()).resolves.toBeUndefined();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('resolves each add with its own item’s result', async () => {
    const batcher = new Batcher<string, string>(async (items) => items.map((item) => item.toUpperCase()), 0);
    await expect(Promise.all(['a', 'b', 'c'].map((item) => batcher.add(item)))).resolves.toEqual(['A', 'B', 'C']);
  });

  it('rejects every add of a batch whose call gave a result short', async () => {
    const batcher = new Batcher<string, string>(async () => ['A'], 0);
    const outcomes = await Promise.allSettled(['a', 'b'].map((item) => batcher.add(item)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
  });

  it('rejects every add of a failed batch, and goes on with the next', async () => {
    const { run, batcher } = setUp(0);
    run.mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
    const failed = [batcher.add('a'), batcher.add('b')];
    for (const add of failed) await expect(add).rejects.toThrow('ECONNREFUSED');
    await expect(batcher.add('c')).resolves.toBeUndefined();
    expect(run.mock.calls).toEqual([[['a', 'b']], [['c']]]);
  });
});
