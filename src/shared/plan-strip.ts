import type { TurnFidelity } from './ledger-types';
import type { PlanRows } from './plan-rows';

/** A run of consecutive closed turns drawn as one segment of the plan strip. */
export interface StripSegment {
  /** Index of its first turn in the plan, and how many turns it holds. */
  first: number;
  count: number;
  /** Its first turn's id: where a click from the keyboard goes, and the name of a one-turn segment. */
  firstTurnId: string;
  tokens: number;
  /** The fidelity of most of its tokens; `mixed` says it holds more than one. */
  fidelity: TurnFidelity;
  mixed: boolean;
  overridden: boolean;
}

/**
 * Most segments a leaf view's strip carries (LeafView.plan.strip): one per 4 px of a strip up
 * to 1,024 px wide; the renderer merges them further to its own width. Bounds the answer
 * whatever the number of turns.
 */
export const STRIP_SEGMENTS = 256;

/**
 * `segs` as at most `max` segments (3,798 turns must fit the strip's box). Runs of the
 * same fidelity and override state merge first (nothing is lost); while there are still too
 * many, neighbours merge pairwise into mixed segments coloured by their larger part. Works on
 * one-turn segments (the backend, from the plan) and on segments already merged (the renderer,
 * from a view's strip). O(segments).
 */
export function mergeSegments(segs: readonly StripSegment[], max: number): StripSegment[] {
  let out: StripSegment[] = [];
  for (const s of segs) {
    const last = out.at(-1);
    if (last && !last.mixed && !s.mixed && last.fidelity === s.fidelity && last.overridden === s.overridden) {
      out[out.length - 1] = { ...last, count: last.count + s.count, tokens: last.tokens + s.tokens };
    } else out.push(s);
  }
  const cap = Math.max(1, Math.floor(max));
  while (out.length > cap) {
    const next: StripSegment[] = [];
    for (let k = 0; k < out.length; k += 2) {
      const a = out[k];
      const b = out[k + 1];
      if (!b) {
        next.push(a);
        continue;
      }
      next.push({
        first: a.first,
        count: a.count + b.count,
        firstTurnId: a.firstTurnId,
        tokens: a.tokens + b.tokens,
        fidelity: a.tokens >= b.tokens ? a.fidelity : b.fidelity,
        mixed: a.mixed || b.mixed || a.fidelity !== b.fidelity,
        overridden: a.overridden || b.overridden,
      });
    }
    out = next;
  }
  return out;
}

/** The plan's closed turns as at most `max` segments (see mergeSegments). */
export function planStrip(plan: PlanRows, isOverridden: (turnId: string) => boolean, max: number): StripSegment[] {
  const singles: StripSegment[] = [];
  for (let i = 0; i < plan.length; i++) {
    const fidelity = plan.fidelity(i);
    const tokens = plan.tokens(i);
    const overridden = isOverridden(plan.turnId(i));
    const last = singles.at(-1);
    // Runs merge here already: a plan of thousands of Full turns makes one object, not thousands.
    if (last && last.fidelity === fidelity && last.overridden === overridden) {
      last.count++;
      last.tokens += tokens;
    } else {
      singles.push({ first: i, count: 1, firstTurnId: plan.turnId(i), tokens, fidelity, mixed: false, overridden });
    }
  }
  return mergeSegments(singles, max);
}

/**
 * The turn of `seg` under a point `fraction` (0…1) of the way across it, by tokens;
 * `tokensOf(i)` is turn i's tokens (the turns of the segment).
 */
export function turnAt(seg: StripSegment, fraction: number, tokensOf: (turn: number) => number): number {
  if (seg.count === 1 || seg.tokens <= 0) return seg.first + Math.min(seg.count - 1, Math.floor(fraction * seg.count));
  const goal = fraction * seg.tokens;
  let acc = 0;
  for (let i = seg.first; i < seg.first + seg.count; i++) {
    acc += tokensOf(i);
    if (acc >= goal) return i;
  }
  return seg.first + seg.count - 1;
}
