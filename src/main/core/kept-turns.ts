/**
 * The kept form of the turn cache (turn-cache.ts): the plain data TurnCache.export gives, and the
 * flat columns a kept index stores and TurnCache.fromColumns reads back.
 */
/**
 * A turn cache as plain data, kept with a session's index (a
 * reopen's first leaf then shapes no closed turn it had shaped before). Per facts: first and
 * last entry, bytes_per_token, tokens, the entry behind each message, the acks it had, and the
 * card calls it looked up without a presentation (the `unacked` index, rebuilt from these).
 */
export interface KeptTurns {
  full: [
    first: number,
    last: number,
    bpt: number,
    tokens: number,
    sources: number[],
    acks: [string, number][],
    unacked: string[],
  ][];
  small: [string, number][];
}

/** Ints per fact in TurnColumns.facts: first, last, tokens, and how many sources, acks, unacked calls. */
export const FACT_INTS = 6;

/**
 * Kept turns as flat columns (what a kept index stores as raw bytes): per fact its ints
 * (FACT_INTS) and bytes_per_token; every fact's sources one after the other, its acks' entries
 * likewise; then the small facts' values. `strings` holds, fact by fact, its acks' ids then its
 * unacked calls' ids, and after them the small facts' keys.
 */
export interface TurnColumns {
  facts: Int32Array;
  bpt: Float64Array;
  sources: Int32Array;
  ackEntries: Int32Array;
  smallValues: Float64Array;
  strings: string[];
}

/** `kept` as columns (not checked: TurnCache.fromColumns checks them where they are read back). */
export function turnColumns(kept: KeptTurns): TurnColumns {
  const n = kept.full.length;
  const facts = new Int32Array(n * FACT_INTS);
  const bpt = new Float64Array(n);
  const sources: number[] = [];
  const ackEntries: number[] = [];
  const strings: string[] = [];
  kept.full.forEach(([first, last, b, tokens, src, acks, unacked], k) => {
    facts.set([first, last, tokens, src.length, acks.length, unacked.length], k * FACT_INTS);
    bpt[k] = b;
    for (const x of src) sources.push(x);
    for (const [id, entry] of acks) {
      ackEntries.push(entry);
      strings.push(id);
    }
    for (const id of unacked) strings.push(id);
  });
  for (const [key] of kept.small) strings.push(key);
  return {
    facts,
    bpt,
    sources: Int32Array.from(sources),
    ackEntries: Int32Array.from(ackEntries),
    smallValues: Float64Array.from(kept.small, ([, v]) => v),
    strings,
  };
}
