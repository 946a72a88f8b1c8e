/**
 * The chain scan under a context series: one pass over a leaf's chain, then every turn of
 * every reset segment costed once at Full by the core's `fullTurn`. What it finds depends
 * only on (chain, bytes per token), never on the window, reserve, plan or overrides, so
 * `context-series.ts` keeps it and a chart redrawn for another budget skips this part.
 */
import type { ChainContext } from '../core/chain-context';
import { scanChain } from '../core/chain-context';
import { isObject } from '../core/entry-types';
import type { Ledger } from '../core/ledger';
import { F_RESET } from '../core/ledger-index';
import { fullTurn, headerContext } from '../core/projection';
import { tokensOf } from '../core/tokens';
import { buildTurnIndex } from '../core/turn-index';
import { stringifyJson } from '../../shared/json-text';
import { fixedTokens, textTokens, verbatimCost, type MessageCost } from './series-costs';
import type { SeriesPacket, SeriesTurns } from './series-plan';

/** One turn of a segment, by chain position. */
export interface SegTurn {
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

/** A packet usable in its segment, with the chain position from which it exists. */
export interface SegPacket extends SeriesPacket {
  pos: number;
}

/** The entries after one reset (or from the root), up to the next reset. */
export interface Segment {
  resetPos: number;
  start: number;
  end: number;
  resetTokens: number;
  preamble: ({ pos: number } & MessageCost)[];
  turns: SegTurn[];
  byId: Map<string, number>;
  /** Closed at the segment's end: Full costs (the last turn may be open: NaN). */
  costs: SeriesTurns;
  fullFixed: Float64Array;
  /** Usable packets (ids are turns of this segment in order), sorted by first turn. */
  packets: SegPacket[];
}

/** An intent on the chain: what the tail says from its position on. */
export interface ChainIntent {
  pos: number;
  text: string | null;
}

/** What a chain's scan found: the same for every window, reserve, plan and override set. */
export interface ChainScan {
  segments: Segment[];
  ctx: ChainContext;
  system: number;
  tools: number;
  intents: ChainIntent[];
  /** Chain ranges [from, to) where a closed turn's Full cost is not yet its final one. */
  lateRanges: [number, number][];
  /** `ts` of chain positions already read (points, answered entries). */
  tsAt: Map<number, string>;
}

type CardsByTurn = Map<string, { pos: number; tokens: number }[]>;
type ChainPacket = { pos: number; id: string; summary: string; first: string; last: string };
type ChainPresentation = { pos: number; toolUseId: string };

/** What the first pass collects for the segments to pick from. */
interface Found {
  cards: CardsByTurn;
  packets: ChainPacket[];
  presentations: ChainPresentation[];
}

/** Work that pauses (a generator yielding between its steps), run to its end at once. */
export function atOnce<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** `scanSeriesSteps` at once. */
export function scanSeriesChain(ledger: Ledger, chain: number[], bpt: number): ChainScan {
  return atOnce(scanSeriesSteps(ledger, chain, bpt));
}

/**
 * One pass over the chain: resets, intents, cards, packets, presentations; then each segment.
 * It pauses (yields) after each turn it costs at Full: every turn's entries are parsed again (a
 * 100 MB session's first scan: ~4 s), and a caller in steps answers other requests meanwhile.
 */
export function* scanSeriesSteps(ledger: Ledger, chain: number[], bpt: number): Generator<void, ChainScan> {
  const ix = ledger.index;
  const ctx = scanChain(ledger, chain);
  const header = headerContext(ledger);
  const scan: ChainScan = {
    segments: [],
    ctx,
    system: tokensOf(header.system, bpt),
    tools: tokensOf(stringifyJson(header.tools), bpt),
    intents: [],
    lateRanges: [],
    tsAt: new Map(),
  };
  const resets: number[] = [];
  const found: Found = { cards: new Map(), packets: [], presentations: [] };
  for (let pos = 0; pos < chain.length; pos++) {
    const i = chain[pos];
    const kind = ix.kindName(i);
    if (kind === 'compaction') {
      if (ix.flags[i] & F_RESET) resets.push(pos);
      const e = ledger.entry(i);
      if (e.kind === 'compaction' && e.packet) {
        const { summary, first_turn_id: first, last_turn_id: last } = e.packet;
        found.packets.push({ pos, id: ix.ids[i], summary, first, last });
      }
    } else if (kind === 'intent') {
      const e = ledger.entry(i);
      scan.intents.push({ pos, text: e.kind === 'intent' ? e.modelVisible : null });
    } else if (kind === 'turn_card') {
      const e = ledger.entry(i);
      if (e.kind !== 'turn_card') continue;
      const list = found.cards.get(e.turn_card.turn_id) ?? [];
      list.push({ pos, tokens: textTokens('[turn card] ' + e.turn_card.line, bpt) });
      found.cards.set(e.turn_card.turn_id, list);
    } else if (kind === 'presentation') {
      const e = ledger.entry(i);
      if (e.kind === 'presentation') found.presentations.push({ pos, toolUseId: e.presentation.tool_use_id });
    }
  }
  const bounds = [-1, ...resets];
  for (let s = 0; s < bounds.length; s++) {
    const r = bounds[s];
    const end = s + 1 < bounds.length ? bounds[s + 1] - 1 : chain.length - 1;
    scan.segments.push(yield* scanSegment(ledger, chain, bpt, scan, r, Math.max(end, r), found));
  }
  return scan;
}

/** One reset segment: its preamble, its turns at Full (a pause after each), its usable packets; late ranges go to `scan`. */
function* scanSegment(
  ledger: Ledger,
  chain: number[],
  bpt: number,
  scan: ChainScan,
  resetPos: number,
  end: number,
  found: Found,
): Generator<void, Segment> {
  const start = resetPos + 1;
  const ti = buildTurnIndex(ledger.index, chain.slice(start, end + 1));
  let pos = start + ti.preamble.length;
  const turns: SegTurn[] = ti.turns.map((t) => {
    const firstPos = pos;
    pos += t.entries.length;
    return {
      id: t.id,
      firstPos,
      lastPos: pos - 1,
      entries: t.entries,
      cards: found.cards.get(t.id) ?? [],
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
    const r = ledger.entry(chain[resetPos]);
    seg.resetTokens = textTokens('[summary] ' + (r.kind === 'compaction' && r.reset ? r.reset.summary : ''), bpt);
  }
  ti.preamble.forEach((i, k) => {
    const v = verbatimCost(ledger, i, bpt);
    if (v) seg.preamble.push({ pos: start + k, ...v });
  });
  // Every turn at Full, costed once by the core (with the leaf's chain context: see lateRanges).
  const toolUseTurn = new Map<string, number>();
  for (let k = 0; k < ti.turns.length; k++) {
    const t = ti.turns[k];
    const msgs = fullTurn(ledger, scan.ctx, t, turns[k].firstPos, bpt, true);
    for (const m of msgs) {
      seg.costs.full[k] += m.tokens;
      seg.fullFixed[k] += fixedTokens(m.content);
      for (const b of m.content) {
        if (isObject(b) && b['type'] === 'tool_use' && typeof b['id'] === 'string') toolUseTurn.set(b['id'], k);
      }
    }
    seg.costs.prefixFull[k + 1] = seg.costs.prefixFull[k] + seg.costs.full[k];
    verbatimOf(ledger, turns[k], bpt); // while its entries are in the ledger's cache
    yield;
  }
  // A card call whose presentation comes after its turn ended: before that, the turn costs otherwise.
  for (const pr of found.presentations) {
    const k = toolUseTurn.get(pr.toolUseId);
    if (k !== undefined && pr.pos > turns[k].lastPos) scan.lateRanges.push([turns[k].lastPos, pr.pos]);
  }
  for (const pk of found.packets) {
    const first = byId.get(pk.first);
    const last = byId.get(pk.last);
    if (first === undefined || last === undefined || first > last) continue;
    const text = `[summary of ${last - first + 1} turns] ${pk.summary}`;
    seg.packets.push({ id: pk.id, pos: pk.pos, first, last, tokens: textTokens(text, bpt) });
  }
  seg.packets.sort((a, b) => a.first - b.first);
  return seg;
}

/** Each entry's verbatim cost in a turn (what it costs while open), read once and kept on the turn. */
export function verbatimOf(ledger: Ledger, t: SegTurn, bpt: number): { tokens: Float64Array; fixed: Float64Array } {
  if (!t.verbatim || !t.verbatimFixed) {
    const tokens = new Float64Array(t.entries.length);
    const fixed = new Float64Array(t.entries.length);
    t.entries.forEach((i, k) => {
      const v = verbatimCost(ledger, i, bpt);
      tokens[k] = v?.tokens ?? 0;
      fixed[k] = v?.fixed ?? 0;
    });
    t.verbatim = tokens;
    t.verbatimFixed = fixed;
  }
  return { tokens: t.verbatim, fixed: t.verbatimFixed };
}
