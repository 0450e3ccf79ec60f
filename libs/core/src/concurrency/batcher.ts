interface Batch<T, R> {
  items: T[];
  /** Settles when the batch has run, with one result per item, in the items' order. */
  done: Promise<R[] | void>;
}

const ignore = () => undefined;

/**
 * Gathers items added close together and hands them to one call, one call at a time: items that
 * arrive while a call is under way wait for it and go together in the next one, so a slow database
 * gets bigger batches rather than more connections. A batch starts only after its last item was
 * added, so a read batch sees every write that had committed before any of its requests arrived.
 */
export class Batcher<T, R = void> {
  private open?: Batch<T, R>;
  /** Starts the open batch before its delay is up (`flush`). */
  private startNow?: () => void;
  private timer?: NodeJS.Timeout;
  private previous: Promise<void> = Promise.resolve();

  /**
   * @param run handles one batch and resolves with each item's result, in order (or nothing, when
   *   there is none to give); its rejection rejects every `add` of the batch.
   * @param delayMs how long a new batch waits for company before it runs; 0 runs it once the
   *   requests that arrived together are all read.
   * @param maxItems a batch this full starts without waiting for its delay, and the next items open
   *   another, which follows it.
   */
  constructor(
    private readonly run: (items: T[]) => Promise<R[] | void>,
    private readonly delayMs: number,
    private readonly maxItems = Infinity,
  ) {}

  /** Resolves with the item's result once the batch holding it has run; rejects when that batch fails. */
  async add(item: T): Promise<R> {
    const batch = this.open ?? this.openBatch();
    const index = batch.items.push(item) - 1;
    if (batch.items.length >= this.maxItems) {
      this.startNow?.();
      this.close(batch);
    }
    const results = await batch.done;
    return results?.[index] as R;
  }

  /**
   * Runs the item at once in a call of its own, outside any batch and without waiting for one: for a
   * caller whose item must not be pooled with others' (see `Sql.batched`).
   */
  async runAlone(item: T): Promise<R> {
    const results = await this.run([item]);
    return results?.[0] as R;
  }

  /** Runs what is pending now; resolves when every batch started so far has settled. */
  flush(): Promise<void> {
    this.startNow?.();
    return this.previous;
  }

  private openBatch(): Batch<T, R> {
    const due = new Promise<void>((resolve) => {
      this.startNow = resolve;
      // No delay: the batch still gathers what the same turn of the event loop adds.
      if (this.delayMs > 0) this.timer = setTimeout(resolve, this.delayMs);
      else setImmediate(resolve);
    });
    const batch: Batch<T, R> = { items: [], done: Promise.resolve() };
    batch.done = Promise.all([due, this.previous]).then(() => {
      this.close(batch);
      return this.run(batch.items).then((results) => {
        if (results && results.length !== batch.items.length)
          throw new Error(`a batch gave ${results.length} results for ${batch.items.length} items`);
        return results;
      });
    });
    this.previous = batch.done.then(ignore, ignore);
    this.open = batch;
    return batch;
  }

  /** From here on, new items open the next batch. */
  private close(batch: Batch<T, R>): void {
    if (this.open !== batch) return;
    this.open = undefined;
    this.startNow = undefined;
    clearTimeout(this.timer);
  }
}
