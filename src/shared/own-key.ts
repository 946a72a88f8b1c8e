/**
 * Lookups in records keyed by ledger data (entry ids, turn ids, kind names): only the
 * record's own keys count, so an id like `constructor` or `toString` never reads a
 * built-in of Object.prototype, and `__proto__` is a key like any other.
 */
export function ownValue<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A copy of `record` without a prototype: assigning `__proto__` on it sets an ordinary key. */
export function keyedCopy<V>(record: Readonly<Record<string, V>>): Record<string, V> {
  const out = Object.create(null) as Record<string, V>;
  for (const k of Object.keys(record)) out[k] = record[k];
  return out;
}

/**
 * A lookup table without a prototype, typed as written: `table[key]` with a key from a ledger or
 * a URL finds only the listed keys, never `Object.prototype` or one of its methods.
 */
export function ownTable<T extends object>(entries: T): T {
  return Object.assign(Object.create(null) as T, entries);
}
