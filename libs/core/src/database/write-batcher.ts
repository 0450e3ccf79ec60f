interface Batch<T, R> {
  items: T[];
  /** Settles when the batch's write has, with one result per item, in the items' order. */
  written: Promise<R[] | void>;
}

const ignore = () => undefined;

/**
 * Gathers items added close together and writes them with one call, one write at a time: items
 * that arrive while a write is under way wait for it and go together in the next one, so a slow
 * database gets bigger batches rather than more connections.
 */
export class WriteBatcher<T, R = void> {
  private open?: Batch<T, R>;
  /** Starts the open batch's write before its delay is up (`flush`). */
  private startNow?: () => void;
  private timer?: NodeJS.Timeout;
  private previous: Promise<void> = Promise.resolve();

  /**
   * @param write writes one batch and resolves with each item's result, in order (or nothing, when
   *   there is none to give); its rejection rejects every `add` of the batch.
   * @param delayMs how long a new batch waits for company before it is written; 0 writes it once the
   *   requests that arrived together are all read.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<R[] | void>,
    private readonly delayMs: number,
  ) {}

  /** Resolves with the item's result once the batch holding it is written; rejects when that write fails. */
  async add(item: T): Promise<R> {
    const batch = this.open ?? this.openBatch();
    const index = batch.items.push(item) - 1;
    const results = await batch.written;
    return results?.[index] as R;
  }

  /** Writes what is pending now; resolves when every write started so far has settled. */
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
    const batch: Batch<T, R> = { items: [], written: Promise.resolve() };
    batch.written = Promise.all([due, this.previous]).then(() => {
      // From here on, new items open the next batch.
      this.open = undefined;
      this.startNow = undefined;
      clearTimeout(this.timer);
      return this.write(batch.items).then((results) => {
        if (results && results.length !== batch.items.length)
          throw new Error(`a batch write gave ${results.length} results for ${batch.items.length} items`);
        return results;
      });
    });
    this.previous = batch.written.then(ignore, ignore);
    this.open = batch;
    return batch;
  }
}
