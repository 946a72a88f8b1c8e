/**
 * Runs tasks one at a time per key (different keys run side by side): each task starts
 * after every task queued before it for its key has settled, whether it succeeded or not.
 * Nothing is kept for a key once its queue is empty.
 */
export class KeyedQueue<K> {
  private readonly tails = new Map<K, Promise<unknown>>();
  private readonly counts = new Map<K, number>();

  /** Runs `fn` after everything queued for `key`; resolves or rejects as `fn` does. */
  run<T>(key: K, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
      const n = (this.counts.get(key) ?? 1) - 1;
      if (n > 0) this.counts.set(key, n);
      else this.counts.delete(key);
    });
    return next;
  }

  /** Tasks of `key` queued or running (the one running counts until it settled). */
  pending(key: K): number {
    return this.counts.get(key) ?? 0;
  }

  /** Keys with a task queued or running. */
  get busyKeys(): number {
    return this.tails.size;
  }
}
