/**
 * Context over time (issue 11 §1): the projected context at every turn end along a
 * leaf's chain, stacked by part, with plan markers and the measured input beside it.
 *
 * Cost: one scan of the chain (the core's chain context), then every turn costed once at
 * Full by the core's `fullTurn`, and once as recorded (for points where it is the open
 * turn); each point then adds up parts from those figures and plans its closed turns with
 * `planPoint` (O(turns), no allocation per turn). Points the figures cannot describe exactly
 * are projected by the core itself and counted in `work.projections`: a closed turn cut
 * short at the point (only a measured point can be one), and a turn whose card call gets
 * its presentation only after the turn ended.
 */
import type {
  ContextParts,
  ContextPoint,
  ContextSeries,
  ContextSeriesRequest,
  MeasuredInput,
} from '../../shared/api-features';
import type { Json, Projection, TurnOverride } from '../../shared/ledger-types';
import { chainToRoot } from '../core/chain';
import { verbatimMessage } from '../core/full-fidelity';
import type { Ledger } from '../core/ledger';
import { F_ASSISTANT, F_MESSAGE, F_RESET, F_USAGE } from '../core/ledger-index';
import { fullTurn, headerContext, projectLeaf } from '../core/projection';
import { scanChain, type ChainContext } from '../core/chain-context';
import { isObject } from '../core/entry-types';
import { stringifyJson } from '../../shared/json-text';
import { IMAGE_TOKENS, MESSAGE_OVERHEAD, messageTokens, tokensOf } from '../core/tokens';
import { buildTurnIndex } from '../core/turn-index';
import { fitBytesPerToken, type FitSample } from './series-fit';
import { Lru } from '../../shared/lru';
import {
  FID_CARD,
  FID_FULL,
  FID_PACKET,
  OV_CARD,
  OV_FULL,
  OV_PACKET,
  planPoint,
  type SeriesOverrides,
  type SeriesPacket,
  type SeriesTurns,
} from './series-plan';

interface SegTurn {
  id: string;
  firstPos: number;
  lastPos: number;
  /** Entry indices, directive first. */
  entries: number[];
  /** Cards naming this turn anywhere on the chain: chain position and cost, in chain order. */
  cards: { pos: number; tokens: number }[];
  /** Verbatim cost of each entry (0 for non-messages), filled when the turn is open at some point. */
  verbatim: Float64Array | null;
  verbatimFixed: Float64Array | null;
}

interface SegPacket extends SeriesPacket {
  pos: number;
}

/** The entries after one reset (or from the root), up to the next reset. */
interface Segment {
  resetPos: number;
  start: number;
  end: number;
  resetTokens: number;
  preamble: { pos: number; tokens: number; fixed: number }[];
  turns: SegTurn[];
  byId: Map<string, number>;
  /** Closed at the segment's end: Full costs (the last turn may be open: NaN). */
  costs: SeriesTurns;
  fullFixed: Float64Array;
  /** Usable packets (ids are turns of this segment in order), sorted by first turn. */
  packets: SegPacket[];
}

/** What a point costs, part by part, and how its closed turns were planned. */
interface PointEval {
  parts: ContextParts;
  total: number;
  fixed: number;
  available: number;
  overBudget: number;
  seg: Segment | null;
  fidelity: Uint8Array;
  closed: number;
  counts: { full: number; card: number; packet: number };
  packetsUsed: string[];
}

const zeroParts = (): ContextParts => ({
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

/** 4 per message plus 1000 per image: the tokens that do not scale with bytes. */
function fixedTokens(content: readonly Json[]): number {
  let n = MESSAGE_OVERHEAD;
  for (const b of content) if (isObject(b) && b['type'] === 'image') n += IMAGE_TOKENS;
  return n;
}

const textTokens = (text: string, bpt: number): number => messageTokens([{ type: 'text', text }], bpt);

/** What a chain's scan found: the same for every window, reserve, plan and override set. */
interface ChainScan {
  segments: Segment[];
  ctx: ChainContext;
  system: number;
  tools: number;
  intents: { pos: number; text: string | null }[];
  lateRanges: [number, number][];
  /** `ts` of chain positions already read (points, answered entries). */
  tsAt: Map<number, string>;
}

/**
 * Scans kept per ledger, keyed by (entries read, leaf, bytes per token): a chart redrawn for
 * another window, plan or override set costs the points only, not the parse of every turn.
 */
const scans = new WeakMap<Ledger, Lru<string, ChainScan>>();
const KEEP_SCANS = 4;

/** Builds the series for `leaf` (an entry index) under the request's plan and profile. */
export function contextSeries(ledger: Ledger, leaf: number, req: ContextSeriesRequest): ContextSeries {
  let kept = scans.get(ledger);
  if (!kept) scans.set(ledger, (kept = new Lru(KEEP_SCANS)));
  const key = `${ledger.index.count}:${leaf}:${req.profile.bytes_per_token}`;
  const b = new SeriesBuilder(ledger, leaf, req, kept.peek(key) ?? null);
  const series = b.build();
  kept.set(key, b.scanned());
  return series;
}

class SeriesBuilder {
  private readonly ix;
  private readonly chain: number[];
  private readonly bpt: number;
  private readonly auto: boolean;
  private readonly overrides: ReadonlyMap<string, TurnOverride>;
  private segments: Segment[] = [];
  private ctx!: ChainContext;
  private system = 0;
  private tools = 0;
  private intents: { pos: number; text: string | null }[] = [];
  /** Chain ranges [from, to) where a closed turn's Full cost is not yet its final one. */
  private lateRanges: [number, number][] = [];
  private tsAt = new Map<number, string>();
  private segOverrides = new Map<Segment, SeriesOverrides>();
  private work = { projections: 0, points: 0, scanned: false };

  constructor(
    private readonly ledger: Ledger,
    private readonly leaf: number,
    private readonly req: ContextSeriesRequest,
    private readonly kept: ChainScan | null,
  ) {
    this.ix = ledger.index;
    this.chain = chainToRoot(this.ix, leaf);
    this.bpt = req.profile.bytes_per_token;
    this.auto = req.plan === 'auto';
    this.overrides = new Map(Object.entries(req.overrides ?? {}));
  }

  /** The scan this series stood on, to keep for the next request. */
  scanned(): ChainScan {
    const { segments, ctx, system, tools, intents, lateRanges, tsAt } = this;
    return { segments, ctx, system, tools, intents, lateRanges, tsAt };
  }

  build(): ContextSeries {
    if (this.kept) Object.assign(this, this.kept);
    else {
      this.scan();
      this.work.scanned = true;
    }
    const points: ContextPoint[] = [];
    const samples: FitSample[] = [];
    let prev: PointEval | null = null;
    for (const p of this.pointPositions()) {
      const ev = this.evaluate(p);
      const measured = this.measure(p, ev, samples);
      points.push(this.point(p, ev, prev, measured));
      prev = ev;
    }
    this.work.points = points.length;
    return {
      leaf: this.ix.ids[this.leaf],
      window: this.req.profile.window,
      reserve: this.req.profile.reserve,
      points,
      fit: fitBytesPerToken(samples),
      work: this.work,
    };
  }

  /** One pass over the chain: resets, intents, cards, packets, presentations; then each segment. */
  private scan(): void {
    const { ix, chain, ledger, bpt } = this;
    this.ctx = scanChain(ledger, chain);
    const header = headerContext(ledger);
    this.system = tokensOf(header.system, bpt);
    this.tools = tokensOf(stringifyJson(header.tools), bpt);
    const resets: number[] = [];
    const cards = new Map<string, { pos: number; tokens: number }[]>();
    const packets: { pos: number; id: string; summary: string; first: string; last: string }[] = [];
    const presentations: { pos: number; toolUseId: string }[] = [];
    for (let pos = 0; pos < chain.length; pos++) {
      const i = chain[pos];
      const kind = ix.kindName(i);
      if (kind === 'compaction') {
        if (ix.flags[i] & F_RESET) resets.push(pos);
        const e = ledger.entry(i);
        if (e.kind === 'compaction' && e.packet) {
          const { summary, first_turn_id: first, last_turn_id: last } = e.packet;
          packets.push({ pos, id: ix.ids[i], summary, first, last });
        }
      } else if (kind === 'intent') {
        const e = ledger.entry(i);
        this.intents.push({ pos, text: e.kind === 'intent' ? e.modelVisible : null });
      } else if (kind === 'turn_card') {
        const e = ledger.entry(i);
        if (e.kind !== 'turn_card') continue;
        const list = cards.get(e.turn_card.turn_id) ?? [];
        list.push({ pos, tokens: textTokens('[turn card] ' + e.turn_card.line, bpt) });
        cards.set(e.turn_card.turn_id, list);
      } else if (kind === 'presentation') {
        const e = ledger.entry(i);
        if (e.kind === 'presentation') presentations.push({ pos, toolUseId: e.presentation.tool_use_id });
      }
    }
    const bounds = [-1, ...resets];
    bounds.forEach((r, s) => {
      const end = s + 1 < bounds.length ? bounds[s + 1] - 1 : chain.length - 1;
      this.segments.push(this.segment(r, Math.max(end, r), cards, packets, presentations));
    });
  }

  private segment(
    resetPos: number,
    end: number,
    cards: Map<string, { pos: number; tokens: number }[]>,
    packets: { pos: number; id: string; summary: string; first: string; last: string }[],
    presentations: { pos: number; toolUseId: string }[],
  ): Segment {
    const { chain, ix, bpt } = this;
    const start = resetPos + 1;
    const ti = buildTurnIndex(ix, chain.slice(start, end + 1));
    let pos = start + ti.preamble.length;
    const turns: SegTurn[] = ti.turns.map((t) => {
      const firstPos = pos;
      pos += t.entries.length;
      return {
        id: t.id,
        firstPos,
        lastPos: pos - 1,
        entries: t.entries,
        cards: cards.get(t.id) ?? [],
        verbatim: null,
        verbatimFixed: null,
      };
    });
    const byId = new Map(turns.map((t, k) => [t.id, k]));
    const seg: Segment = {
      resetPos,
      start,
      end,
      resetTokens: 0,
      preamble: [],
      turns,
      byId,
      costs: { full: new Float64Array(turns.length), prefixFull: new Float64Array(turns.length + 1) },
      fullFixed: new Float64Array(turns.length),
      packets: [],
    };
    if (resetPos >= 0) {
      const r = this.ledger.entry(chain[resetPos]);
      seg.resetTokens = textTokens('[summary] ' + (r.kind === 'compaction' && r.reset ? r.reset.summary : ''), bpt);
    }
    ti.preamble.forEach((i, k) => {
      const v = this.verbatimCost(i);
      if (v) seg.preamble.push({ pos: start + k, ...v });
    });
    // Every turn at Full, costed once by the core (with the leaf's chain context: see lateRanges).
    const toolUseTurn = new Map<string, number>();
    ti.turns.forEach((t, k) => {
      const msgs = fullTurn(this.ledger, this.ctx, t, turns[k].firstPos, bpt);
      for (const m of msgs) {
        seg.costs.full[k] += m.tokens;
        seg.fullFixed[k] += fixedTokens(m.content);
        for (const b of m.content) {
          if (isObject(b) && b['type'] === 'tool_use' && typeof b['id'] === 'string') toolUseTurn.set(b['id'], k);
        }
      }
      seg.costs.prefixFull[k + 1] = seg.costs.prefixFull[k] + seg.costs.full[k];
      this.verbatimOf(turns[k]); // while its entries are in the ledger's cache
    });
    // A card call whose presentation comes after its turn ended: before that, the turn costs otherwise.
    for (const pr of presentations) {
      const k = toolUseTurn.get(pr.toolUseId);
      if (k !== undefined && pr.pos > turns[k].lastPos) this.lateRanges.push([turns[k].lastPos, pr.pos]);
    }
    for (const pk of packets) {
      const first = byId.get(pk.first);
      const last = byId.get(pk.last);
      if (first === undefined || last === undefined || first > last) continue;
      const text = `[summary of ${last - first + 1} turns] ${pk.summary}`;
      seg.packets.push({ id: pk.id, pos: pk.pos, first, last, tokens: textTokens(text, bpt) });
    }
    seg.packets.sort((a, b) => a.first - b.first);
    return seg;
  }

  private project(leafEntry: number, plan: 'none' | 'auto', overrides: ReadonlyMap<string, TurnOverride>): Projection {
    this.work.projections++;
    return projectLeaf(this.ledger, leafEntry, { plan, profile: this.req.profile, overrides }).projection;
  }

  /** Each turn's last entry, and the leaf. */
  private pointPositions(): number[] {
    const out: number[] = [];
    for (const s of this.segments) for (const t of s.turns) out.push(t.lastPos);
    const last = this.chain.length - 1;
    if (out[out.length - 1] !== last) out.push(last);
    return out;
  }

  private segmentAt(p: number): Segment {
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.segments[mid].resetPos <= p) lo = mid;
      else hi = mid - 1;
    }
    return this.segments[lo];
  }

  /** Index of the segment turn holding chain position p, or -1 (preamble, reset). */
  private turnAt(seg: Segment, p: number): number {
    let lo = 0;
    let hi = seg.turns.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (seg.turns[mid].firstPos <= p) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** A message entry's cost as recorded (preamble, open turn), or null for any other entry. */
  private verbatimCost(i: number): { tokens: number; fixed: number } | null {
    if ((this.ix.flags[i] & F_MESSAGE) === 0) return null;
    const shaped = verbatimMessage(this.ledger.entry(i));
    return shaped ? { tokens: messageTokens(shaped.content, this.bpt), fixed: fixedTokens(shaped.content) } : null;
  }

  private verbatimOf(t: SegTurn): { tokens: Float64Array; fixed: Float64Array } {
    if (!t.verbatim || !t.verbatimFixed) {
      const tokens = new Float64Array(t.entries.length);
      const fixed = new Float64Array(t.entries.length);
      t.entries.forEach((i, k) => {
        const v = this.verbatimCost(i);
        tokens[k] = v?.tokens ?? 0;
        fixed[k] = v?.fixed ?? 0;
      });
      t.verbatim = tokens;
      t.verbatimFixed = fixed;
    }
    return { tokens: t.verbatim, fixed: t.verbatimFixed };
  }

  private tsOf(p: number): string {
    let ts = this.tsAt.get(p);
    if (ts === undefined) this.tsAt.set(p, (ts = this.ledger.entry(this.chain[p]).ts));
    return ts;
  }

  private tailTokens(p: number): number {
    const ts = this.tsOf(p);
    let text = '[tail]\ntime: ' + ts;
    let lo = 0;
    let hi = this.intents.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.intents[mid].pos <= p) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const mv = found >= 0 ? this.intents[found].text : null;
    if (mv !== null) text += '\n' + mv;
    return textTokens(text, this.bpt);
  }

  /** The projected context at chain position p. */
  private evaluate(p: number): PointEval {
    const seg = this.segmentAt(p);
    const parts = zeroParts();
    parts.system = this.system;
    parts.tools = this.tools;
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
    const j = this.turnAt(seg, p);
    let closed = 0;
    let cutShort = false;
    if (j >= 0) {
      const t = seg.turns[j];
      let open = false;
      for (let k = p - t.firstPos; k >= 0; k--) {
        const f = this.ix.flags[t.entries[k]];
        if (f & F_MESSAGE) {
          open = (f & F_ASSISTANT) === 0;
          break;
        }
      }
      if (open) {
        closed = j;
        const v = this.verbatimOf(t);
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
    const late = this.lateRanges.some(([from, to]) => from <= p && p < to);
    if (cutShort || late) return this.evaluateByProjection(p, seg, parts, fixed, available, closed);
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
    return this.finish(
      parts,
      fixed,
      available,
      plan.need,
      seg,
      fidelity,
      closed,
      plan,
      plan.packetsUsed.map((x) => x.id),
    );
  }

  private finish(
    parts: ContextParts,
    fixed: number,
    available: number,
    need: number,
    seg: Segment,
    fidelity: Uint8Array,
    closed: number,
    counts: { full: number; card: number; packet: number },
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
      counts: { full: counts.full, card: counts.card, packet: counts.packet },
      packetsUsed,
    };
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

  /** A point the per-turn figures cannot describe: the core projects it. */
  private evaluateByProjection(
    p: number,
    seg: Segment,
    fixedParts: ContextParts,
    fixedSoFar: number,
    available: number,
    closed: number,
  ): PointEval {
    const proj = this.project(this.chain[p], this.req.plan, this.overrides);
    const parts = { ...fixedParts, full: 0, card: 0, packet: 0 };
    let fixed = fixedSoFar;
    for (const m of proj.messages) {
      if (m.fidelity === 'full' || m.fidelity === 'card' || m.fidelity === 'packet') {
        parts[m.fidelity] += m.tokens;
        fixed += fixedTokens(m.content);
      }
    }
    const fidelity = new Uint8Array(closed);
    const counts = { full: 0, card: 0, packet: 0 };
    const used = new Set<string>();
    proj.plan.forEach((row) => {
      const k = seg.byId.get(row.turn_id);
      counts[row.fidelity]++;
      if (row.packet_id) used.add(row.packet_id);
      if (k !== undefined && k < closed)
        fidelity[k] = row.fidelity === 'full' ? FID_FULL : row.fidelity === 'card' ? FID_CARD : FID_PACKET;
    });
    const need = proj.over_budget + proj.tokens.available;
    return this.finish(parts, fixed, proj.tokens.available, need, seg, fidelity, closed, counts, [...used]);
  }

  /** The measured input of the point's turn's newest answer with a usage, and the estimate for that call. */
  private measure(p: number, ev: PointEval, samples: FitSample[]): MeasuredInput | null {
    const seg = ev.seg;
    if (!seg) return null;
    const j = this.turnAt(seg, p);
    if (j < 0) return null;
    const t = seg.turns[j];
    const { ix } = this;
    for (let k = p - t.firstPos; k >= 1; k--) {
      const i = t.entries[k];
      if ((ix.flags[i] & (F_ASSISTANT | F_USAGE)) !== (F_ASSISTANT | F_USAGE)) continue;
      const tokens = ix.usage[i * 4] + ix.usage[i * 4 + 2] + ix.usage[i * 4 + 3];
      const at = t.firstPos + k - 1;
      const est = this.evaluate(at);
      samples.push({
        bytes: (est.total - est.fixed) * this.bpt,
        fixed: est.fixed,
        estimated: est.total,
        measured: tokens,
      });
      return { entryId: ix.ids[i], tokens, answeredId: ix.ids[this.chain[at]], estimated: est.total };
    }
    return null;
  }

  private point(p: number, ev: PointEval, prev: PointEval | null, measured: MeasuredInput | null): ContextPoint {
    const seg = ev.seg;
    const newSeg = !prev || prev.seg !== seg;
    const degraded: string[] = [];
    if (seg && !newSeg && prev) {
      for (let k = 0; k < ev.closed; k++) {
        const before = k < prev.closed ? prev.fidelity[k] : FID_FULL;
        if (ev.fidelity[k] === FID_CARD && before === FID_FULL) degraded.push(seg.turns[k].id);
      }
    }
    const prevPackets = new Set(newSeg || !prev ? [] : prev.packetsUsed);
    const j = seg ? this.turnAt(seg, p) : -1;
    return {
      leaf: this.ix.ids[this.chain[p]],
      pos: p,
      ts: this.tsOf(p),
      turnId: seg && j >= 0 ? seg.turns[j].id : null,
      parts: ev.parts,
      total: ev.total,
      available: ev.available,
      overBudget: ev.overBudget,
      turns: ev.counts,
      markers: {
        reset: seg && seg.resetPos >= 0 && newSeg ? this.ix.ids[this.chain[seg.resetPos]] : null,
        packets: ev.packetsUsed.filter((id) => !prevPackets.has(id)),
        degraded,
        overBudget: ev.overBudget > 0,
      },
      measured,
    };
  }
}
