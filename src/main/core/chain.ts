import type { LedgerIndex } from './ledger-index';

/** §2 chain_to_root: the entries from the root down to `leaf`, root first. */
export function chainToRoot(index: LedgerIndex, leaf: number): number[] {
  const out: number[] = [];
  for (let i = leaf; i >= 0; i = index.parent[i]) out.push(i);
  return out.reverse();
}
