/**
 * The checks a kept index's entries must pass and the children links rebuilt from their parents
 * (restoreIndex, ledger-snapshot.ts), over every entry before a reopen's first rows: one loop over
 * the arrays, no call per entry (it runs cold, in code that has not run yet in that process).
 */
import { KNOWN_KINDS } from './entry-types';
import { NO_PARENT, ORPHAN, UNKNOWN_KIND } from './ledger-index';

/** The arrays of an index's first `n` entries that are checked, and the links written. */
export interface EntryArrays {
  parent: Int32Array;
  kind: Uint8Array;
  offset: Float64Array;
  length: Uint32Array;
  line: Uint32Array;
  /** Written: each at least `n` long, every slot -1 (the links) or 0 (the counts) before. */
  firstChild: Int32Array;
  lastChild: Int32Array;
  nextSibling: Int32Array;
  childCount: Uint32Array;
}

/** What the first entry that fails a check fails; the checks run in this order per entry. */
export type LinkProblem = 'parent links' | 'kind codes' | 'offsets' | 'line numbers';

/**
 * Checks entries 0 … n-1 (parents earlier, known kind codes, offsets increasing and integral with
 * each line inside `coveredBytes`, line numbers increasing up to `lines`) and links each to its
 * parent, as LedgerIndex.add does. Returns the first problem, or null; the links are complete only then.
 */
export function linkEntries(a: EntryArrays, n: number, coveredBytes: number, lines: number): LinkProblem | null {
  const { parent, kind, offset, length, line, firstChild, lastChild, nextSibling, childCount } = a;
  let prevEnd = 0;
  let prevLine = 0;
  for (let i = 0; i < n; i++) {
    const p = parent[i];
    const k = kind[i];
    const off = offset[i];
    if (!(p === NO_PARENT || p === ORPHAN || (p >= 0 && p < i))) return 'parent links';
    if (!(k < KNOWN_KINDS.length || k === UNKNOWN_KIND)) return 'kind codes';
    if (!(off >= prevEnd && Number.isInteger(off) && off + length[i] < coveredBytes)) return 'offsets';
    prevEnd = off + length[i] + 1;
    if (!(line[i] > prevLine && line[i] <= lines)) return 'line numbers';
    prevLine = line[i];
    if (p >= 0) {
      if (lastChild[p] < 0) firstChild[p] = i;
      else nextSibling[lastChild[p]] = i;
      lastChild[p] = i;
      childCount[p]++;
    }
  }
  return null;
}
