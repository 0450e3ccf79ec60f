import { SharedReads } from './shared-reads';

/** A read whose runs are counted and that settles when told. */
function controlledRead() {
  const runs: Array<(value: number) => void> = [];
  const run = () => new Promise<number>((resolve) => runs.push(resolve));
  return { runs, run };
}

/** A few turns of the event loop: enough for every run that is due to start. */
async function turns(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('SharedReads', () => {
  it('gives asks of one key made together one run, and its result', async () => {
    const reads = new SharedReads<number>();
    const { runs, run } = controlledRead();
    const asks = [reads.read('a', run), reads.read('a', run), reads.read('a', run)];
    await turns();
    expect(runs).toHaveLength(1);
    runs[0]!(7);
    await expect(Promise.all(asks)).resolves.toEqual([7, 7, 7]);
  });

  it('never lets an ask share a run that started before it: it shares the next one', async () => {
    const reads = new SharedReads<number>();
    const { runs, run } = controlledRead();
    const first = reads.read('a', run);
    await turns();
    const later = [reads.read('a', run), reads.read('a', run)];
    await turns();
    expect(runs).toHaveLength(1);
    runs[0]!(1);
    await expect(first).resolves.toBe(1);
    await turns();
    expect(runs).toHaveLength(2);
    runs[1]!(2);
    await expect(Promise.all(later)).resolves.toEqual([2, 2]);
  });

  it('runs different keys side by side, and a failed run fails only its own asks', async () => {
    const reads = new SharedReads<number>();
    const failing = reads.read('a', () => Promise.reject(new Error('down')));
    const other = reads.read('b', () => Promise.resolve(5));
    await expect(failing).rejects.toThrow('down');
    await expect(other).resolves.toBe(5);
    await expect(reads.read('a', () => Promise.resolve(6))).resolves.toBe(6);
  });
});
