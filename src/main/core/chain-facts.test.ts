import { describe, expect, it } from 'vitest';
import { nearestPlanned, type ChainFacts } from './chain-facts';
import type { LedgerIndex } from './ledger-index';

/** A chain whose element reads are counted (the work a lookup does, whatever the machine's speed). */
function countedChain(entries: number[]): { chain: number[]; reads: () => number } {
  let reads = 0;
  const chain = new Proxy(entries, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { chain, reads: () => reads };
}

const factsOf = (chain: number[]): ChainFacts =>
  ({
    bpt: 4,
    chain,
    turnIndex: { preamble: [], turns: [{ id: 't', entries: [0], open: false }] },
  }) as unknown as ChainFacts;

describe('where a leaf meets the planned chains (nearestPlanned)', () => {
  // One straight chain of n entries: entry i's parent is i - 1.
  const n = 200_000;
  const index = { parent: Int32Array.from({ length: n }, (_, i) => i - 1) } as unknown as LedgerIndex;

  it('finds a leaf high up a deeper kept chain by halving it, not by walking up from its end', () => {
    const { chain, reads } = countedChain(Array.from({ length: n }, (_, i) => i));
    const deep = factsOf(chain);
    expect(nearestPlanned(index, [deep], 10, 4)).toEqual({ prev: deep, pos: 10, path: [] });
    expect(reads()).toBeLessThan(4 * Math.log2(n));
  });

  it('below a kept chain, meets it at its leaf with the entries between as the path', () => {
    const shallow = factsOf(Array.from({ length: 1000 }, (_, i) => i));
    const m = nearestPlanned(index, [shallow], 1004, 4);
    expect(m).toEqual({ prev: shallow, pos: 999, path: [1000, 1001, 1002, 1003, 1004] });
    // Another bytes_per_token is no start.
    expect(nearestPlanned(index, [shallow], 1004, 3)).toBeNull();
  });
});
