/**
 * What is derived from a ledger's reading, kept per ledger for as long as that reading holds: the
 * ledger object outlives a reload (its index is replaced, and a same-size rewrite keeps every
 * count), so a cache keyed by the ledger alone, or by its entry count, would answer from bytes that
 * are gone. Keyed by the reading's generation (Ledger.generation: new on every reading from byte 0,
 * and when a hash check marks entries), a value is derived again after any of them.
 */

/** What a reading is known by: its ledger (held weakly) and its generation. */
export interface Reading {
  readonly generation: number;
}

export class PerReading<V> {
  private readonly map = new WeakMap<Reading, { generation: number; value: V }>();

  /** The value derived from `ledger`'s current reading, or undefined (none, or one of an earlier reading). */
  get(ledger: Reading): V | undefined {
    const kept = this.map.get(ledger);
    return kept !== undefined && kept.generation === ledger.generation ? kept.value : undefined;
  }

  /** The value of the current reading, made by `make` when there is none yet. */
  getOrMake(ledger: Reading, make: () => V): V {
    const kept = this.get(ledger);
    if (kept !== undefined) return kept;
    const value = make();
    this.set(ledger, value);
    return value;
  }

  /** Keeps `value` for `ledger`'s current reading. */
  set(ledger: Reading, value: V): void {
    this.map.set(ledger, { generation: ledger.generation, value });
  }

  /** Whether a value of the current reading is kept. */
  has(ledger: Reading): boolean {
    return this.get(ledger) !== undefined;
  }

  delete(ledger: Reading): void {
    this.map.delete(ledger);
  }
}
