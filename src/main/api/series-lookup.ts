/**
 * What stands at a chain position in a scan: its segment, its turn, the intent in force, its
 * `ts`. Segments, turns and intents are in chain order, so each is a binary search: a series
 * asks this at every point, and a linear walk would make 10,000 points O(turns²).
 */
import type { Ledger } from '../core/ledger';
import type { ChainScan, Segment } from './series-scan';

/** The last k < n with posAt(k) ≤ p (posAt ascending), or -1 when there is none. */
export function lastAtOrBefore(n: number, posAt: (k: number) => number, p: number): number {
  let lo = 0;
  let hi = n - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (posAt(mid) <= p) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The segment holding chain position p (the first one starts before the root, so there always is one). */
export function segmentAt(scan: ChainScan, p: number): Segment {
  const s = lastAtOrBefore(scan.segments.length, (k) => scan.segments[k].resetPos, p);
  return scan.segments[Math.max(s, 0)];
}

/** Index of the segment turn holding chain position p, or -1 (preamble, reset). */
export function turnAt(seg: Segment, p: number): number {
  return lastAtOrBefore(seg.turns.length, (k) => seg.turns[k].firstPos, p);
}

/** The model-visible text of the newest intent at or before p, or null. */
export function intentTextAt(scan: ChainScan, p: number): string | null {
  const k = lastAtOrBefore(scan.intents.length, (j) => scan.intents[j].pos, p);
  return k >= 0 ? scan.intents[k].text : null;
}

/** The `ts` of chain position p, read once per scan (points and answered entries are asked again). */
export function tsOf(ledger: Ledger, chain: readonly number[], scan: ChainScan, p: number): string {
  let ts = scan.tsAt.get(p);
  if (ts === undefined) scan.tsAt.set(p, (ts = ledger.entry(chain[p]).ts));
  return ts;
}
