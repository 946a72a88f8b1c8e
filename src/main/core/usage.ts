import type { UsageTotals } from '../../shared/ledger-types';
import type { Ledger } from './ledger';
import { F_USAGE } from './ledger-index';

/**
 * §2: usage totals. Summed over the active chain for the session's figure;
 * over every entry ('all') for the all-branches figure the explorer labels apart.
 */
export function usageTotals(ledger: Ledger, entries: readonly number[] | 'all'): UsageTotals {
  const ix = ledger.index;
  const { flags, usage } = ix;
  const all = entries === 'all';
  const n = all ? ix.count : entries.length;
  // Plain counters in one loop: a reopen sums 2 × the chain in cold code before its first rows.
  let input = 0;
  let output = 0;
  let cacheRead = 0;
  let cacheWrite = 0;
  let messages = 0;
  for (let k = 0; k < n; k++) {
    const i = all ? k : entries[k];
    if ((flags[i] & F_USAGE) === 0) continue;
    input += usage[i * 4];
    output += usage[i * 4 + 1];
    cacheRead += usage[i * 4 + 2];
    cacheWrite += usage[i * 4 + 3];
    messages++;
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
