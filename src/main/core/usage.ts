import type { UsageTotals } from '../../shared/ledger-types';
import type { Ledger } from './ledger';
import { F_USAGE } from './ledger-index';

/**
 * §2: usage totals. Summed over the active chain for the session's figure;
 * over every entry ('all') for the all-branches figure the explorer labels apart.
 */
export function usageTotals(ledger: Ledger, entries: Iterable<number> | 'all'): UsageTotals {
  const t: UsageTotals = {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    messages: 0,
  };
  const ix = ledger.index;
  const add = (i: number): void => {
    if ((ix.flags[i] & F_USAGE) === 0) return;
    t.input_tokens += ix.usage[i * 4];
    t.output_tokens += ix.usage[i * 4 + 1];
    t.cache_read_tokens += ix.usage[i * 4 + 2];
    t.cache_write_tokens += ix.usage[i * 4 + 3];
    t.messages++;
  };
  if (entries === 'all') for (let i = 0; i < ix.count; i++) add(i);
  else for (const i of entries) add(i);
  return t;
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
