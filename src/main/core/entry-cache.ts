/**
 * The parsed entries a ledger keeps, the most recently asked for first to stay, bounded by the
 * bytes of their lines rather than by their number: a parsed entry costs a few times its line,
 * and a count alone let 4,096 large entries hold tens of MB (memory follows the index,
 * not the payloads). Entries evicted soon also die young: a long scan (a leaf's plan parses its
 * whole chain) no longer promotes every entry it parsed into the old generation.
 *
 * The newest entry is always kept, however large, so asking for it again costs no parse.
 */

/** Lines held at most (bytes, without `\n`); a few of the largest turns of a real session fit. */
export const ENTRY_CACHE_BYTES = 1 << 20;
/** Entries held at most, however small (a page of the tree or the history is a few hundred). */
export const ENTRY_CACHE_ENTRIES = 4096;

export class EntryCache<V> {
  private readonly map = new Map<number, { value: V; bytes: number }>();
  private held = 0;

  constructor(
    readonly maxBytes: number = ENTRY_CACHE_BYTES,
    readonly maxEntries: number = ENTRY_CACHE_ENTRIES,
  ) {
    if (!(maxBytes >= 0) || !Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`EntryCache bounds must be positive, not ${maxBytes} bytes / ${maxEntries} entries`);
    }
  }

  /** Entries held now. */
  get size(): number {
    return this.map.size;
  }

  /** Bytes of the lines held now. */
  get bytes(): number {
    return this.held;
  }

  /** The entry, marked as just used. */
  get(i: number): V | undefined {
    const slot = this.map.get(i);
    if (slot === undefined) return undefined;
    this.map.delete(i);
    this.map.set(i, slot);
    return slot.value;
  }

  /** Keeps entry `i` parsed from a line of `bytes` bytes, dropping the least recently used beyond the bounds. */
  set(i: number, value: V, bytes: number): void {
    const had = this.map.get(i);
    if (had !== undefined) {
      this.map.delete(i);
      this.held -= had.bytes;
    }
    this.map.set(i, { value, bytes });
    this.held += bytes;
    for (const [k, slot] of this.map) {
      if (this.map.size <= 1 || (this.held <= this.maxBytes && this.map.size <= this.maxEntries)) break;
      this.map.delete(k);
      this.held -= slot.bytes;
    }
  }

  clear(): void {
    this.map.clear();
    this.held = 0;
  }
}
