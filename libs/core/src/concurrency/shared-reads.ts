const ignore = () => undefined;

interface KeyState<R> {
  /** The run under way. */
  running?: Promise<R>;
  /** The run that the asks made meanwhile share; it starts once `running` has settled. */
  next?: Promise<R>;
}

/**
 * Identical reads asked for close together share one run, as `Batcher` shares a batch: while a read of a
 * key is under way, later asks for that key wait and share the next run. A run never serves an ask made
 * after it started, so every ask sees every write committed before it was made. Reads of different keys
 * never wait for each other. The result is shared by every ask: treat it as read-only.
 */
export class SharedReads<R> {
  private readonly keys = new Map<string, KeyState<R>>();

  read(key: string, run: () => Promise<R>): Promise<R> {
    let state = this.keys.get(key);
    if (!state) this.keys.set(key, (state = {}));
    if (state.next) return state.next;
    const settled = state.running?.then(ignore, ignore) ?? Promise.resolve();
    // Like a Batcher with no delay: the run still gathers the asks of the same turn of the event loop.
    const next: Promise<R> = settled
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        state.next = undefined;
        state.running = next;
        return run();
      });
    state.next = next;
    void next.then(ignore, ignore).then(() => {
      if (state.running !== next) return;
      state.running = undefined;
      if (!state.next) this.keys.delete(key);
    });
    return next;
  }
}
