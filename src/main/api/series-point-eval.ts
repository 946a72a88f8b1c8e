/**
 * What a context series point costs: the figures every way of evaluating a point ends in,
 * whether planned from the scan (`series-evaluate.ts`) or projected by the core
 * (`series-by-projection.ts`), and what the measured overlay and the markers read.
 */
import type { ContextParts } from '../../shared/api-features';
import type { Segment } from './series-scan';

/** Turns by fidelity at a point, as the plan counts them. */
export interface FidelityCounts {
  full: number;
  card: number;
  packet: number;
}

/** What a point costs, part by part, and how its closed turns were planned. */
export interface PointEval {
  parts: ContextParts;
  total: number;
  /** The tokens of `total` that do not scale with bytes (what the bytes-per-token fit subtracts). */
  fixed: number;
  available: number;
  overBudget: number;
  seg: Segment | null;
  fidelity: Uint8Array;
  closed: number;
  counts: FidelityCounts;
  packetsUsed: string[];
}

/** What a point costs before its closed turns are planned. */
export interface Unplanned {
  seg: Segment;
  /** Every part but full, card and packet. */
  parts: ContextParts;
  fixed: number;
  available: number;
  /** Turns of `seg` closed at the point. */
  closed: number;
  /** The point's own turn is closed but does not end at the point. */
  cutShort: boolean;
}

/** A point's parts before anything is added up. */
export const zeroParts = (): ContextParts => ({
  system: 0,
  tools: 0,
  full: 0,
  card: 0,
  packet: 0,
  reset: 0,
  preamble: 0,
  tail: 0,
  open: 0,
});

/** A point's evaluation from its parts and plan: over budget by what the plan needs beyond `available`. */
export function finishPoint(
  parts: ContextParts,
  fixed: number,
  available: number,
  need: number,
  seg: Segment,
  fidelity: Uint8Array,
  closed: number,
  counts: FidelityCounts,
  packetsUsed: string[],
): PointEval {
  let total = 0;
  for (const v of Object.values(parts)) total += v;
  return {
    parts,
    total,
    fixed,
    available,
    overBudget: Math.max(0, need - available),
    seg,
    fidelity,
    closed,
    // Copied: `counts` may be the whole plan result, which must not leak into the point.
    counts: { full: counts.full, card: counts.card, packet: counts.packet },
    packetsUsed,
  };
}
