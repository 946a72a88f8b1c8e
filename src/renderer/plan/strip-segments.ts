import type { PlanRow } from '../../shared/ledger-types';

/** A run of consecutive turns drawn as one segment of the plan strip. */
export interface StripSegment {
  /** Index of its first turn in the plan, and how many turns it holds. */
  first: number;
  count: number;
  tokens: number;
  /** The fidelity of most of its tokens; `mixed` says it holds more than one. */
  fidelity: PlanRow['fidelity'];
  mixed: boolean;
  overridden: boolean;
}

const single = (r: PlanRow, i: number, overridden: boolean): StripSegment => ({
  first: i,
  count: 1,
  tokens: r.tokens,
  fidelity: r.fidelity,
  mixed: false,
  overridden,
});

/**
 * The plan as at most `max` segments (issue 9: 3,798 turns must fit the strip's box). Runs of
 * the same fidelity and override state merge first (nothing is lost); while there are still too
 * many, neighbours merge pairwise into mixed segments coloured by their larger part. O(turns).
 */
export function stripSegments(
  plan: readonly PlanRow[],
  isOverridden: (turnId: string) => boolean,
  max: number,
): StripSegment[] {
  let segs: StripSegment[] = [];
  plan.forEach((r, i) => {
    const o = isOverridden(r.turn_id);
    const last = segs.at(-1);
    if (last && !last.mixed && last.fidelity === r.fidelity && last.overridden === o) {
      last.count++;
      last.tokens += r.tokens;
    } else segs.push(single(r, i, o));
  });
  const cap = Math.max(1, Math.floor(max));
  while (segs.length > cap) {
    const next: StripSegment[] = [];
    for (let k = 0; k < segs.length; k += 2) {
      const a = segs[k];
      const b = segs[k + 1];
      if (!b) {
        next.push(a);
        continue;
      }
      next.push({
        first: a.first,
        count: a.count + b.count,
        tokens: a.tokens + b.tokens,
        fidelity: a.tokens >= b.tokens ? a.fidelity : b.fidelity,
        mixed: a.mixed || b.mixed || a.fidelity !== b.fidelity,
        overridden: a.overridden || b.overridden,
      });
    }
    segs = next;
  }
  return segs;
}

/** The turn of `seg` under a point `fraction` (0…1) of the way across it, by tokens. */
export function turnAt(plan: readonly PlanRow[], seg: StripSegment, fraction: number): number {
  if (seg.count === 1 || seg.tokens <= 0) return seg.first + Math.min(seg.count - 1, Math.floor(fraction * seg.count));
  const goal = fraction * seg.tokens;
  let acc = 0;
  for (let i = seg.first; i < seg.first + seg.count; i++) {
    acc += plan[i].tokens;
    if (acc >= goal) return i;
  }
  return seg.first + seg.count - 1;
}
