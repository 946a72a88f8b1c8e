import type { LedgerIndex } from './ledger-index';

/**
 * §2 chain_to_root: the entries from the root down to `leaf`, root first. The chain is walked
 * twice, to count it and then to fill an array of that length from its end: on a long chain
 * this is a few times cheaper than pushing and reversing.
 */
export function chainToRoot(index: LedgerIndex, leaf: number): number[] {
  const parent = index.parent;
  let n = 0;
  for (let i = leaf; i >= 0; i = parent[i]) n++;
  const out = new Array<number>(n);
  for (let i = leaf; i >= 0; i = parent[i]) out[--n] = i;
  return out;
}
