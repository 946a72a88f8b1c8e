import type { UsageTotals } from '../../shared/ledger-types';
import type { Ledger } from './ledger';
import { F_USAGE } from './ledger-index';

/** The entries a usage sum covers: these, every entry ('all'), or the chain up from `upFrom` to its root. */
export type UsageOf = readonly number[] | Int32Array | 'all' | { upFrom: number };

/**
 * §2: usage totals. Summed over the active chain for the session's figure;
 * over every entry ('all') for the all-branches figure the explorer labels apart.
 * `{upFrom}` walks the parents, for a chain whose entries are not listed anywhere.
 */
export function usageTotals(ledger: Ledger, of: UsageOf): UsageTotals {
  const ix = ledger.index;
  const { flags, usage, parent } = ix;
  const list = typeof of === 'object' && 'upFrom' in of ? null : of;
  const all = list === 'all';
  const n = list === null ? 0 : all ? ix.count : list.length;
  // Plain counters in one loop: a reopen sums 2 × the chain in cold code before its first rows.
  let input = 0;
  let output = 0;
  let cacheRead = 0;
  let cacheWrite = 0;
  let messages = 0;
  let k = 0;
  let i = list === null ? (ix.count > 0 ? (of as { upFrom: number }).upFrom : -1) : n > 0 ? (all ? 0 : list[0]) : -1;
  while (i >= 0) {
    if ((flags[i] & F_USAGE) !== 0) {
      input += usage[i * 4];
      output += usage[i * 4 + 1];
      cacheRead += usage[i * 4 + 2];
      cacheWrite += usage[i * 4 + 3];
      messages++;
    }
    if (list === null) i = parent[i];
    else i = ++k < n ? (all ? k : list[k]) : -1;
  }
  return {
    input_tokens: input,
    output_tokens: output,
    cache_read_tokens: cacheRead,
    cache_write_tokens: cacheWrite,
    messages,
  };
}

/** Two sums of usage added (the totals of two disjoint sets of entries). */
export function plusTotals(a: UsageTotals, b: UsageTotals): UsageTotals {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_read_tokens: a.cache_read_tokens + b.cache_read_tokens,
    cache_write_tokens: a.cache_write_tokens + b.cache_write_tokens,
    messages: a.messages + b.messages,
  };
}
