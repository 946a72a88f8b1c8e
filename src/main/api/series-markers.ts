/**
 * A series point as the chart gets it, with markers for what changed since the previous
 * point: a reset that starts to apply, packets newly applied, turns the plan moved from Full
 * to Card. Markers compare within one segment only: across a reset every turn is new.
 */
import type { ContextPoint } from '../../shared/api-series';
import type { Ledger } from '../core/ledger';
import { tsOf, turnAt, type ChainScan, type Segment } from '../core/chain-scan';
import { FID_CARD, FID_FULL } from '../core/plan-engine';
import type { PointEval } from '../core/turn-end';

/**
 * What the next point is marked against: the previous point's segment, packets and fidelity. Its
 * fidelity is copied (an evaluation's is lent by the planner until its next one, and a measured
 * input's estimate plans again in between), and only when a turn was not at Full: a long chain's
 * points are mostly all Full.
 */
export class PreviousPoint {
  private seg: Segment | null = null;
  private closed = 0;
  private packets: readonly string[] = [];
  /** FID_* of the previous point's closed turns, or null: none, or all at Full. */
  private fidelity: Uint8Array | null = null;
  private buffer = new Uint8Array(0);
  private kept = false;

  /** Keeps `ev` as the previous point of the next one. */
  keep(ev: PointEval): void {
    this.kept = true;
    this.seg = ev.seg;
    this.closed = ev.closed;
    this.packets = ev.packetsUsed;
    this.fidelity = null;
    if (ev.counts.card + ev.counts.packet > 0) {
      if (this.buffer.length < ev.closed) this.buffer = new Uint8Array(Math.max(ev.closed, 2 * this.buffer.length));
      this.buffer.set(ev.fidelity.subarray(0, ev.closed));
      this.fidelity = this.buffer;
    }
  }

  /** The point at chain position p from its evaluation, marked against the previous point (none before the first). */
  point(ledger: Ledger, chain: Int32Array, scan: ChainScan, p: number, ev: PointEval): ContextPoint {
    const ix = ledger.index;
    const seg = ev.seg;
    const newSeg = !this.kept || this.seg !== seg;
    const degraded: string[] = [];
    // (Only a turn at Card now can be one: most points of a long chain have none.)
    if (seg && !newSeg && ev.counts.card > 0) {
      for (let k = 0; k < ev.closed; k++) {
        // A turn not yet closed at the previous point counts as Full there, as the chart drew it.
        const before = k < this.closed && this.fidelity ? this.fidelity[k] : FID_FULL;
        if (ev.fidelity[k] === FID_CARD && before === FID_FULL) degraded.push(seg.turns[k].id);
      }
    }
    const prevPackets = new Set(newSeg ? [] : this.packets);
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
      measured: null,
    };
  }
}
