/**
 * A series point as the chart gets it, with markers for what changed since the previous
 * point: a reset that starts to apply, packets newly applied, turns the plan moved from Full
 * to Card. Markers compare within one segment only: across a reset every turn is new.
 */
import type { ContextPoint, MeasuredInput } from '../../shared/api-series';
import type { Ledger } from '../core/ledger';
import { tsOf, turnAt, type ChainScan } from '../core/chain-scan';
import { FID_CARD, FID_FULL } from '../core/plan-engine';
import type { PointEval } from '../core/turn-end';

/** The point at chain position p from its evaluation, marked against the previous point's. */
export function contextPoint(
  ledger: Ledger,
  chain: Int32Array,
  scan: ChainScan,
  p: number,
  ev: PointEval,
  prev: PointEval | null,
  measured: MeasuredInput | null,
): ContextPoint {
  const ix = ledger.index;
  const seg = ev.seg;
  const newSeg = !prev || prev.seg !== seg;
  const degraded: string[] = [];
  // (Only a turn at Card now can be one: most points of a long chain have none.)
  if (seg && !newSeg && prev && ev.counts.card > 0) {
    for (let k = 0; k < ev.closed; k++) {
      // A turn not yet closed at the previous point counts as Full there, as the chart drew it.
      const before = k < prev.closed ? prev.fidelity[k] : FID_FULL;
      if (ev.fidelity[k] === FID_CARD && before === FID_FULL) degraded.push(seg.turns[k].id);
    }
  }
  const prevPackets = new Set(newSeg || !prev ? [] : prev.packetsUsed);
  const j = seg ? turnAt(seg, p) : -1;
  return {
    leaf: ix.ids[chain[p]],
    pos: p,
    ts: tsOf(ledger, chain, scan, p),
    turnId: seg && j >= 0 ? seg.turns[j].id : null,
    parts: ev.parts,
    total: ev.total,
    available: ev.available,
    overBudget: ev.overBudget,
    turns: ev.counts,
    markers: {
      reset: seg && seg.resetPos >= 0 && newSeg ? ix.ids[chain[seg.resetPos]] : null,
      packets: ev.packetsUsed.filter((id) => !prevPackets.has(id)),
      degraded,
      overBudget: ev.overBudget > 0,
    },
    measured,
  };
}
