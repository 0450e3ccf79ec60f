interface Batch<T> {
  items: T[];
  /** Settles when the batch's write has: what every `add` of the batch returned. */
  written: Promise<void>;
}

const ignore = () => undefined;

/**
 * Gathers items added close together and writes them with one call, one write at a time: items
 * that arrive while a write is under way wait for it and go together in the next one, so a slow
 * database gets bigger batches rather than more connections.
 */
export class WriteBatcher<T> {
  private open?: Batch<T>;
  /** Starts the open batch's write before its delay is up (`flush`). */
  private startNow?: () => void;
  private timer?: NodeJS.Timeout;
  private previous: Promise<void> = Promise.resolve();

  /**
   * @param write writes one batch; its rejection rejects every `add` of the batch.
   * @param delayMs how long a new batch waits for company before it is written.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly delayMs: number,
  ) {}

  /** Resolves once the batch holding `item` is written; rejects when that write fails. */
  add(item: T): Promise<void> {
    const batch = this.open ?? this.openBatch();
    batch.items.push(item);
    return batch.written;
  }

  /** Writes what is pending now; resolves when every write started so far has settled. */
  flush(): Promise<void> {
    this.startNow?.();
    return this.previous;
  }

  private openBatch(): Batch<T> {
    const due = new Promise<void>((resolve) => {
      this.startNow = resolve;
      this.timer = setTimeout(resolve, this.delayMs);
    });
    const batch: Batch<T> = { items: [], written: Promise.resolve() };
    batch.written = Promise.all([due, this.previous]).then(() => {
      // From here on, new items open the next batch.
      this.open = undefined;
      this.startNow = undefined;
      clearTimeout(this.timer);
      return this.write(batch.items);
    });
    this.previous = batch.written.then(ignore, ignore);
    this.open = batch;
    return batch;
  }
}
