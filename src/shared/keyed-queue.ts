/**
 * Runs tasks one at a time per key (different keys run side by side): each task starts
 * after every task queued before it for its key has settled, whether it succeeded or not.
 * Nothing is kept for a key once its queue is empty.
 */
export class KeyedQueue<K> {
  private readonly tails = new Map<K, Promise<unknown>>();

  /** Runs `fn` after everything queued for `key`; resolves or rejects as `fn` does. */
  run<T>(key: K, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }

  /** Keys with a task queued or running. */
  get busyKeys(): number {
    return this.tails.size;
  }
}
