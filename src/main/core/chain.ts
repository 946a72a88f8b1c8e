import type { LedgerIndex } from './ledger-index';

/**
 * §2 chain_to_root: the entries from the root down to `leaf`, root first. The chain is walked
 * twice, to count it and then to fill an array of that length from its end: on a long chain
 * this is a few times cheaper than pushing and reversing.
 *
 * An Int32Array, never written once built: a leaf's chain is made from a planned one's prefix (a
 * view of it, `subarray`) and the entries below (chain-facts.ts), and a copy of a 300k-entry chain
 * outside the JS heap costs a fraction of a plain array's (no garbage for the collector to follow).
 */
export function chainToRoot(index: LedgerIndex, leaf: number): Int32Array {
  const parent = index.parent;
  let n = 0;
  for (let i = leaf; i >= 0; i = parent[i]) n++;
  const out = new Int32Array(n);
  for (let i = leaf; i >= 0; i = parent[i]) out[--n] = i;
  return out;
}
