/**
 * What is derived from a ledger's reading, kept for as long as that reading holds: the ledger
 * object outlives a reload (its index is replaced, and a same-size rewrite keeps every count), so a
 * cache keyed by the ledger alone, or by its entry count, would answer from bytes that are gone.
 *
 * One owner holds every such cache of a reading: its `DerivedCaches` (Ledger.derived), keyed by the
 * reading's generation (Ledger.generation: new on every reading from byte 0, and when a hash check
 * marks entries). When the generation moves on, every value of the earlier one is dropped there,
 * all at once; a module declares only which cache it uses (a `PerReading`, a named key), never
 * holds values itself, and never checks a generation.
 */

/** What a reading is known by: its generation, and the one registry of what is derived from it. */
export interface Reading {
  readonly generation: number;
  readonly derived: DerivedCaches;
}

/** Every cache derived from one ledger's reading, for its current generation only. */
export class DerivedCaches {
  private generation = Number.NaN;
  private readonly values = new Map<PerReading<unknown>, unknown>();

  /** The values of reading `generation`: those of any other were dropped as it began. */
  private of(generation: number): Map<PerReading<unknown>, unknown> {
    if (generation !== this.generation) {
      this.values.clear();
      this.generation = generation;
    }
    return this.values;
  }

  get<V>(cache: PerReading<V>, generation: number): V | undefined {
    return this.of(generation).get(cache) as V | undefined;
  }

  set<V>(cache: PerReading<V>, generation: number, value: V): void {
    this.of(generation).set(cache, value);
  }

  delete<V>(cache: PerReading<V>, generation: number): void {
    this.of(generation).delete(cache);
  }

  /** The caches holding a value of reading `generation` (diagnostics, tests). */
  names(generation: number): string[] {
    return [...this.of(generation).keys()].map((c) => c.name);
  }

  /** Drops every value (the ledger was closed). */
  clear(): void {
    this.values.clear();
  }
}

/** One kind of value derived from a reading: a key into that reading's `DerivedCaches`. */
export class PerReading<V> {
  constructor(readonly name = 'derived') {}

  /** The value derived from `reading` as it is now, or undefined (none, or only of an earlier generation). */
  get(reading: Reading): V | undefined {
    return reading.derived.get(this, reading.generation);
  }

  /** The value of the current reading, made by `make` when there is none yet. */
  getOrMake(reading: Reading, make: () => V): V {
    const kept = this.get(reading);
    if (kept !== undefined) return kept;
    const value = make();
    this.set(reading, value);
    return value;
  }

  /** Keeps `value` for `reading`'s current generation. */
  set(reading: Reading, value: V): void {
    reading.derived.set(this, reading.generation, value);
  }

  /** Whether a value of the current reading is kept. */
  has(reading: Reading): boolean {
    return this.get(reading) !== undefined;
  }

  delete(reading: Reading): void {
    reading.derived.delete(this, reading.generation);
  }
}
