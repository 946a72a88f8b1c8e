/**
 * The projected context at any turn end of a chain, from its scan's per-turn figures
 * (chain-scan.ts): the parts no plan chooses (system, tools, reset, preamble, open turn, tail)
 * are added up, then the closed turns are planned by the plan engine (plan-engine.ts) in
 * O(closed turns) with no object per turn, so 10,000 turn ends cost far less than 10,000
 * projections. Where those figures are not exact, the point is planned as a leaf (`planLeaf`) instead.
 */
import type { CapacityProfile, TurnOverride } from '../../shared/ledger-types';
import { ownTable } from '../../shared/own-key';
import { fixedTokens, intentTextAt, segmentAt, tsOf, turnAt, type ChainScan, type Segment } from './chain-scan';
import type { Ledger } from './ledger';
import { tailText, userTextTokens } from './message-shapes';
import {
  FID_CARD,
  FID_FULL,
  FID_PACKET,
  overridesByPosition,
  planClosedTurns,
  type EngineOverrides,
} from './plan-engine';
import { planLeaf, projectionOf } from './leaf-plan';
import { MESSAGE_OVERHEAD } from './tokens';
import { openAt } from './turn-index';

/** A turn end's tokens, part by part (the context chart's stack). */
export interface TurnEndParts {
  system: number;
  tools: number;
  full: number;
  card: number;
  packet: number;
  reset: number;
  preamble: number;
  tail: number;
  open: number;
}

/** Turns by fidelity at a point, as the plan counts them. */
export interface FidelityCounts {
  full: number;
  card: number;
  packet: number;
}

/** What a point costs, part by part, and how its closed turns were planned. */
export interface PointEval {
  parts: TurnEndParts;
  total: number;
  /** The tokens of `total` that do not scale with bytes (what the bytes-per-token fit subtracts). */
  fixed: number;
  available: number;
  overBudget: number;
  seg: Segment | null;
  /**
   * FID_* per closed turn of `seg` at the point. Lent by the planner: it holds until the planner's
   * next `evaluate`, which writes the next point's plan in the same array (copy what must last).
   */
  fidelity: Uint8Array;
  closed: number;
  counts: FidelityCounts;
  packetsUsed: string[];
}

/** A plan request as a turn end needs it. */
export interface TurnEndRequest {
  profile: CapacityProfile;
  plan: 'none' | 'auto';
  overrides?: Readonly<Record<string, TurnOverride>>;
}

/** What a point costs before its closed turns are planned. */
interface Unplanned {
  seg: Segment;
  /** Every part but full, card and packet. */
  parts: TurnEndParts;
  fixed: number;
  available: number;
  /** Turns of `seg` closed at the point. */
  closed: number;
  /** The point's own turn is closed but does not end at the point. */
  cutShort: boolean;
}

/**
 * Plans the turn ends of one chain scan under one request (profile, plan and overrides). Made per
 * request; `work.projections` counts the points that had to be projected instead.
 */
export class TurnEndPlanner {
  private readonly bpt: number;
  private readonly auto: boolean;
  private readonly overrides: ReadonlyMap<string, TurnOverride>;
  /** The overrides by turn position, per segment: made once per request, not per point. */
  private readonly segOverrides = new Map<Segment, EngineOverrides | null>();
  /** Card costs at the current point, per segment (moved from point to point). */
  private readonly cardCosts = new Map<Segment, CardCosts>();
  /**
   * The fidelity every plan writes (PointEval.fidelity), and how much of it the last plan moved
   * from Full. A new array per point was O(closed turns) allocated and zeroed at each: over the
   * 39,000 turn ends of a 1 GiB chain, over a gigabyte churned outside the heap while its series ran.
   */
  private fidelity = new Uint8Array(0);
  private written = 0;

  constructor(
    private readonly ledger: Ledger,
    private readonly chain: Int32Array,
    private readonly scan: ChainScan,
    private readonly req: TurnEndRequest,
    private readonly work: { projections: number } = { projections: 0 },
  ) {
    this.bpt = req.profile.bytes_per_token;
    this.auto = req.plan === 'auto';
    this.overrides = new Map(Object.entries(req.overrides ?? {}));
  }

  /** The projected context at chain position p. */
  evaluate(p: number): PointEval {
    const u = this.unplanned(p);
    const late = this.scan.lateRanges.some(([from, to]) => from <= p && p < to);
    return u.cutShort || late ? this.byProjection(p, u) : this.planned(p, u);
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
      if (openAt(this.ledger.index, t.entries, p - t.firstPos)) {
        closed = j;
        for (let q = t.firstPos; q <= p; q++) {
          parts.open += seg.verbatim[q - seg.start];
          fixed += seg.verbatimFixed[q - seg.start];
        }
      } else {
        closed = j + 1;
        cutShort = p !== t.lastPos;
      }
    }
    const ts = tsOf(this.ledger, this.chain, scan, p);
    parts.tail = userTextTokens(tailText(ts, intentTextAt(scan, p)), this.bpt);
    fixed += MESSAGE_OVERHEAD;
    const { window, reserve } = this.req.profile;
    const available =
      window - reserve - parts.system - parts.tools - parts.reset - parts.preamble - parts.open - parts.tail;
    return { seg, parts, fixed, available, closed, cutShort };
  }

  /** The closed turns at p planned by the engine from the scan's per-turn figures (cards and packets as of p). */
  private planned(p: number, u: Unplanned): PointEval {
    const { seg, parts, available, closed } = u;
    let fixed = u.fixed;
    const packets = seg.packets.filter((pk) => pk.pos <= p && pk.last < closed);
    const overrides = this.overridesOf(seg);
    // Card costs are read only by card overrides and step 3: a plain `none` series skips them.
    const cards = this.auto || overrides ? this.cardsAt(seg, p) : null;
    const costs = { full: seg.full, card: cards?.card ?? NO_CARDS, prefix: seg.prefixFull, anyCard: cards?.any };
    const plan = planClosedTurns(costs, closed, packets, available, this.auto, overrides, this.lentFidelity(closed));
    if (plan.full < closed) this.written = closed;
    parts.full = plan.fullTokens;
    parts.card = plan.cardTokens;
    parts.packet = plan.packetTokens;
    // (Whole numbers: the prefix sum is the loop's sum exactly.)
    if (plan.full === closed) fixed += seg.prefixFullFixed[closed];
    else
      for (let k = 0; k < closed; k++) {
        if (plan.fidelity[k] === FID_FULL) fixed += seg.fullFixed[k];
        else if (plan.fidelity[k] === FID_CARD) fixed += MESSAGE_OVERHEAD;
      }
    fixed += MESSAGE_OVERHEAD * plan.packetsUsed.length;
    const used = plan.packetsUsed.map((j) => packets[j].id);
    return finishPoint(parts, fixed, available, plan.need, seg, plan.fidelity, closed, plan, used);
  }

  /**
   * Each turn's Card cost at p (the newest card on the chain up to p), or -1. Moved from the previous
   * point by the cards between them (points go forward, a measured input's estimate a little back),
   * so a series costs O(cards) for them, not O(turns) per point.
   */
  private cardsAt(seg: Segment, p: number): { card: Float64Array; any: boolean } {
    let s = this.cardCosts.get(seg);
    if (!s) this.cardCosts.set(seg, (s = cardCosts(seg)));
    const { card, events, was } = s;
    while (s.applied < events.length && events[s.applied].pos <= p) {
      const e = events[s.applied];
      was[s.applied++] = card[e.k];
      card[e.k] = e.tokens;
    }
    while (s.applied > 0 && events[s.applied - 1].pos > p) card[events[--s.applied].k] = was[s.applied];
    // (Every card starts at -1 and each event sets one: none applied, none there.)
    return { card: s.card, any: s.applied > 0 };
  }

  /**
   * A point the per-turn figures cannot describe, projected instead (counted in `work.projections`):
   * a closed turn cut short at the point (only an estimate for a measured input can be one), or a
   * point inside a late range, where a card call's presentation comes after its turn ended so the
   * turn costs otherwise than its final Full cost. Both are rare.
   */
  private byProjection(p: number, u: Unplanned): PointEval {
    const { seg, closed } = u;
    this.work.projections++;
    const { plan, profile } = this.req;
    const lp = planLeaf(this.ledger, this.chain[p], { plan, profile, overrides: this.overrides });
    const proj = projectionOf(lp, lp.messages(0, lp.messageCount));
    const parts = ownTable({ ...u.parts, full: 0, card: 0, packet: 0 });
    let fixed = u.fixed;
    for (const m of proj.messages) {
      if (m.fidelity === 'full' || m.fidelity === 'card' || m.fidelity === 'packet') {
        parts[m.fidelity] += m.tokens;
        fixed += fixedTokens(m.content);
      }
    }
    const fidelity = new Uint8Array(closed);
    const counts = ownTable<FidelityCounts>({ full: 0, card: 0, packet: 0 });
    const used = new Set<string>();
    for (const row of proj.plan) {
      const k = seg.byId.get(row.turn_id);
      counts[row.fidelity]++;
      if (row.packet_id) used.add(row.packet_id);
      if (k !== undefined && k < closed)
        fidelity[k] = row.fidelity === 'full' ? FID_FULL : row.fidelity === 'card' ? FID_CARD : FID_PACKET;
    }
    const need = proj.over_budget + proj.tokens.available;
    return finishPoint(parts, fixed, proj.tokens.available, need, seg, fidelity, closed, counts, [...used]);
  }

  /** The fidelity array for a plan of `m` closed turns: FID_FULL over its first m. */
  private lentFidelity(m: number): Uint8Array {
    if (this.fidelity.length < m) this.fidelity = new Uint8Array(Math.max(m, 2 * this.fidelity.length));
    else if (this.written > 0) this.fidelity.fill(FID_FULL, 0, this.written);
    this.written = 0;
    return this.fidelity;
  }

  /** The request's overrides by turn position of a segment (null without any), made once per segment. */
  private overridesOf(seg: Segment): EngineOverrides | null {
    let o = this.segOverrides.get(seg);
    if (o === undefined) {
      o = overridesByPosition(this.overrides, (id) => seg.byId.get(id), seg.turns.length);
      this.segOverrides.set(seg, o);
    }
    return o;
  }
}

/** A segment's Card costs as of the cards applied so far (`events` in chain order, `was` to undo them). */
interface CardCosts {
  card: Float64Array;
  events: { pos: number; k: number; tokens: number }[];
  applied: number;
  was: Float64Array;
}

function cardCosts(seg: Segment): CardCosts {
  const events = seg.turns.flatMap((t, k) => t.cards.map((c) => ({ pos: c.pos, k, tokens: c.tokens })));
  events.sort((a, b) => a.pos - b.pos);
  const card = new Float64Array(seg.turns.length).fill(-1);
  return { card, events, applied: 0, was: new Float64Array(events.length) };
}

/** No turn's Card cost (for a plan that reads none). */
const NO_CARDS = new Float64Array(0);

/** A point's parts before anything is added up. */
const zeroParts = (): TurnEndParts => ({
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
function finishPoint(
  parts: TurnEndParts,
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
