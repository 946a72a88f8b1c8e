/**
 * A bounded map that forgets the least recently used key first. A Map iterates in
 * insertion order, so "used" means re-inserted at the end; the first key is the oldest.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(
    readonly max: number,
    /** Told of every key dropped to stay within `max`. */
    private readonly onEvict?: (key: K, value: V) => void,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`Lru max must be a positive integer, not ${max}`);
  }

  get size(): number {
    return this.map.size;
  }

  /** The value, marked as just used. */
  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) this.touch(key, v);
    return v;
  }

  /** The value, without changing its recency. */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): void {
    this.touch(key, value);
    for (const [k, v] of this.map) {
      if (this.map.size <= this.max) break;
      this.map.delete(k);
      this.onEvict?.(k, v);
    }
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  /** Oldest first. */
  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }

  private touch(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
  }
}
