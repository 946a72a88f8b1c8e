import type { UsageTotals } from '../../shared/ledger-types';
import type { Ledger } from './ledger';

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
  const usage = ledger.index.usage;
  const add = (i: number): void => {
    const u = usage.get(i);
    if (!u) return;
    t.input_tokens += u.input_tokens;
    t.output_tokens += u.output_tokens;
    t.cache_read_tokens += u.cache_read_tokens ?? 0;
    t.cache_write_tokens += u.cache_write_tokens ?? 0;
    t.messages++;
  };
  if (entries === 'all') for (const i of usage.keys()) add(i);
  else for (const i of entries) add(i);
  return t;
}
