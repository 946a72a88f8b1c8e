/**
 * Per-point planning of a context series: the projected context at one chain position from
 * the scan's per-turn figures. The parts no plan chooses (system, tools, reset, preamble,
 * open turn, tail) are added up, then the closed turns are planned by `planPoint` in
 * O(turns) with no object per turn, so 10,000 points cost far less than 10,000 projections.
 * Where those figures are not exact, `series-by-projection.ts` asks the core instead.
 */
import type { ContextSeriesRequest } from '../../shared/api-features';
import type { TurnOverride } from '../../shared/ledger-types';
import type { Ledger } from '../core/ledger';
import { F_ASSISTANT, F_MESSAGE } from '../core/ledger-index';
import { MESSAGE_OVERHEAD } from '../core/tokens';
import { evaluateByProjection } from './series-by-projection';
import { textTokens } from './series-costs';
import { intentTextAt, segmentAt, tsOf, turnAt } from './series-lookup';
import { FID_CARD, FID_FULL, OV_CARD, OV_FULL, OV_PACKET, planPoint, type SeriesOverrides } from './series-plan';
import { finishPoint, zeroParts, type PointEval, type Unplanned } from './series-point-eval';
import { verbatimOf, type ChainScan, type Segment } from './series-scan';

/** Evaluates the points of one request (its profile, plan and overrides) over a kept or fresh scan. */
export class PointEvaluator {
  private readonly bpt: number;
  private readonly auto: boolean;
  private readonly overrides: ReadonlyMap<string, TurnOverride>;
  /** The overrides by turn position, per segment: made once per request, not per point. */
  private readonly segOverrides = new Map<Segment, SeriesOverrides>();

  constructor(
    private readonly ledger: Ledger,
    private readonly chain: number[],
    private readonly scan: ChainScan,
    private readonly req: ContextSeriesRequest,
    private readonly work: { projections: number },
  ) {
    this.bpt = req.profile.bytes_per_token;
    this.auto = req.plan === 'auto';
    this.overrides = new Map(Object.entries(req.overrides ?? {}));
  }

  /** The projected context at chain position p. */
  evaluate(p: number): PointEval {
    const u = this.unplanned(p);
    const late = this.scan.lateRanges.some(([from, to]) => from <= p && p < to);
    if (u.cutShort || late) {
      return evaluateByProjection(this.ledger, this.chain, this.req, this.overrides, this.work, p, u);
    }
    return this.planned(p, u);
  }

  /** The parts at p that no plan chooses, which leave `available` for its closed turns. */
  private unplanned(p: number): Unplanned {
    const { scan } = this;
    const seg = segmentAt(scan, p);
    const parts = zeroParts();
    parts.system = scan.system;
    parts.tools = scan.tools;
    let fixed = 0;
    if (seg.resetPos >= 0) {
      parts.reset = seg.resetTokens;
      fixed += MESSAGE_OVERHEAD;
    }
    for (const m of seg.preamble) {
      if (m.pos > p) break;
      parts.preamble += m.tokens;
      fixed += m.fixed;
    }
    const j = turnAt(seg, p);
    let closed = 0;
    let cutShort = false;
    if (j >= 0) {
      const t = seg.turns[j];
      // The turn is open at p when its newest message up to p is not the assistant's.
      let open = false;
      for (let k = p - t.firstPos; k >= 0; k--) {
        const f = this.ledger.index.flags[t.entries[k]];
        if (f & F_MESSAGE) {
          open = (f & F_ASSISTANT) === 0;
          break;
        }
      }
      if (open) {
        closed = j;
        const v = verbatimOf(this.ledger, t, this.bpt);
        for (let k = 0; k <= p - t.firstPos; k++) {
          parts.open += v.tokens[k];
          fixed += v.fixed[k];
        }
      } else {
        closed = j + 1;
        cutShort = p !== t.lastPos;
      }
    }
    parts.tail = this.tailTokens(p);
    fixed += MESSAGE_OVERHEAD;
    const { window, reserve } = this.req.profile;
    const available =
      window - reserve - parts.system - parts.tools - parts.reset - parts.preamble - parts.open - parts.tail;
    return { seg, parts, fixed, available, closed, cutShort };
  }

  /** The closed turns at p planned from the scan's per-turn figures (cards and packets as of p). */
  private planned(p: number, u: Unplanned): PointEval {
    const { seg, parts, available, closed } = u;
    let fixed = u.fixed;
    const fidelity = new Uint8Array(closed);
    const usable = seg.packets.filter((pk) => pk.pos <= p && pk.last < closed);
    const cardAt = (k: number): number => {
      const cs = seg.turns[k].cards;
      for (let c = cs.length - 1; c >= 0; c--) if (cs[c].pos <= p) return cs[c].tokens;
      return -1;
    };
    const plan = planPoint(seg.costs, closed, cardAt, usable, available, this.auto, fidelity, this.overridesOf(seg));
    parts.full = plan.fullTokens;
    parts.card = plan.cardTokens;
    parts.packet = plan.packetTokens;
    for (let k = 0; k < closed; k++) {
      if (fidelity[k] === FID_FULL) fixed += seg.fullFixed[k];
      else if (fidelity[k] === FID_CARD) fixed += MESSAGE_OVERHEAD;
    }
    fixed += MESSAGE_OVERHEAD * plan.packetsUsed.length;
    const used = plan.packetsUsed.map((x) => x.id);
    return finishPoint(parts, fixed, available, plan.need, seg, fidelity, closed, plan, used);
  }

  /** The tail message at p: the time of the point and the intent in force. */
  private tailTokens(p: number): number {
    let text = '[tail]\ntime: ' + tsOf(this.ledger, this.chain, this.scan, p);
    const mv = intentTextAt(this.scan, p);
    if (mv !== null) text += '\n' + mv;
    return textTokens(text, this.bpt);
  }

  /** The request's overrides by turn position of a segment (null without any), made once per segment. */
  private overridesOf(seg: Segment): SeriesOverrides | null {
    if (this.overrides.size === 0) return null;
    let o = this.segOverrides.get(seg);
    if (!o) {
      o = { kind: new Uint8Array(seg.turns.length), packetId: seg.turns.map(() => null) };
      for (const [turnId, ov] of this.overrides) {
        const k = seg.byId.get(turnId);
        if (k === undefined) continue;
        o.kind[k] = ov.fidelity === 'full' ? OV_FULL : ov.fidelity === 'card' ? OV_CARD : OV_PACKET;
        if (ov.fidelity === 'packet') o.packetId[k] = ov.packet_id;
      }
      this.segOverrides.set(seg, o);
    }
    return o;
  }
}
