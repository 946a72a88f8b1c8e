import type { GenerateOptions } from './session-generator';

/**
 * The real-size session: ~100 MiB, ~36k entries, one ~35k-entry
 * active chain, every turn Full (no turn cards, packets or resets) — what an agent without
 * compaction writes, and the worst case for `plan none`. Tool results of 5–12 KB bring the
 * mean line to ~2.9 KB as in the file; one branch in ~80 turns leaves ~900 entries
 * off the active chain. Generates 36,010 entries, chain 35,156, 104.9 MB.
 */
export function realSizeUncompacted(path: string): GenerateOptions {
  return {
    seed: 100,
    bytes: 100 * 1024 * 1024,
    cwd: '/home/ana/projects/vak',
    shape: 'uncompacted',
    branchChance: 0.012,
    toolResultBytes: [5000, 12400],
    path,
  };
}
