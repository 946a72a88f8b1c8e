/**
 * A chain scanned for its every turn end: one pass over a leaf's chain, then every turn of
 * every reset segment costed once at Full by `fullTurn`. What it finds depends only on
 * (chain, bytes per token), never on the window, reserve, plan or overrides, so a caller
 * keeps it and plans any turn end from it (turn-end.ts) without parsing a turn again.
 */
import type { Json } from '../../shared/ledger-types';
import { stringifyJson } from '../../shared/json-text';
import type { ChainContext } from './chain-context';
import { atOnce } from './cancel';
import { scanChain } from './chain-context';
import { isObject, type LedgerEntry } from './entry-types';
import { verbatimMessage } from './full-fidelity';
import type { LongStrings } from './json-skim';
import type { Ledger } from './ledger';
import { F_MESSAGE, F_RESET } from './ledger-index';
import { cardText, fullTurn, headerContext, packetText, resetText, userTextTokens } from './message-shapes';
import type { EnginePacket } from './plan-engine';
import { IMAGE_TOKENS, MESSAGE_OVERHEAD, messageTokens, tokensOf } from './tokens';
import { buildTurnIndex } from './turn-index';

/** A message's cost and the part of it that does not scale with bytes. */
export interface MessageCost {
  tokens: number;
  fixed: number;
}

/** 4 per message plus 1000 per image: the tokens that do not scale with bytes (what a bytes-per-token fit subtracts). */
export function fixedTokens(content: readonly Json[]): number {
  let n = MESSAGE_OVERHEAD;
  for (const b of content) if (isObject(b) && b['type'] === 'image') n += IMAGE_TOKENS;
  return n;
}

/** A message entry's cost as recorded (preamble, open turn), or null for any other entry. */
function verbatimCost(ledger: Ledger, i: number, bpt: number): MessageCost | null {
  return isMessage(ledger, i) ? entryVerbatimCost(ledger.entry(i), bpt) : null;
}

const isMessage = (ledger: Ledger, i: number): boolean => (ledger.index.flags[i] & F_MESSAGE) !== 0;

/** The same of an entry as read (`long`: a skimmed entry's measures, EntryRead). */
function entryVerbatimCost(e: LedgerEntry, bpt: number, long: LongStrings | null = null): MessageCost | null {
  const shaped = verbatimMessage(e);
  return shaped ? { tokens: messageTokens(shaped.content, bpt, long), fixed: fixedTokens(shaped.content) } : null;
}

/** One turn of a segment, by chain position. */
export interface SegTurn {
  id: string;
  firstPos: number;
  lastPos: number;
  /** Entry indices, directive first. */
  entries: number[];
  /** Cards naming this turn anywhere on the chain: chain position and cost, in chain order. */
  cards: { pos: number; tokens: number }[];
}

/** A packet usable in its segment, with the chain position from which it exists. */
export interface SegPacket extends EnginePacket {
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
  /** Full cost per turn, and its prefix sums (prefixFull[k] = full[0] + … + full[k-1]). */
  full: Float64Array;
  prefixFull: Float64Array;
  fullFixed: Float64Array;
  /** Prefix sums of `fullFixed`, as `prefixFull` of `full`. */
  prefixFullFixed: Float64Array;
  /**
   * Each turn entry's cost as recorded (what it costs while its turn is open; 0 for no message),
   * by chain position from `start` (one array per segment, not two per turn: a scan is kept).
   */
  verbatim: Float64Array;
  verbatimFixed: Float64Array;
  /** Usable packets (ids are turns of this segment in order), by first turn (ties in chain order: the plan's step 2 order). */
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

/** `scanChainSteps` at once. */
export function scanChainCosts(ledger: Ledger, chain: Int32Array, bpt: number): ChainScan {
  return atOnce(scanChainSteps(ledger, chain, bpt));
}

/**
 * One pass over the chain: resets, intents, cards, packets, presentations; then each segment.
 * It pauses (yields) after each turn it costs at Full: every turn's entries are parsed again (a
 * 100 MB session's first scan: ~4 s), and a caller in steps answers other requests meanwhile.
 */
export function* scanChainSteps(ledger: Ledger, chain: Int32Array, bpt: number): Generator<void, ChainScan> {
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
      list.push({ pos, tokens: userTextTokens(cardText(e.turn_card.line), bpt) });
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
  chain: Int32Array,
  bpt: number,
  scan: ChainScan,
  resetPos: number,
  end: number,
  found: Found,
): Generator<void, Segment> {
  const start = resetPos + 1;
  const ti = buildTurnIndex(ledger.index, chain.subarray(start, end + 1));
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
    full: new Float64Array(turns.length),
    prefixFull: new Float64Array(turns.length + 1),
    fullFixed: new Float64Array(turns.length),
    prefixFullFixed: new Float64Array(turns.length + 1),
    verbatim: new Float64Array(end + 1 - start),
    verbatimFixed: new Float64Array(end + 1 - start),
    packets: [],
  };
  if (resetPos >= 0) {
    const r = ledger.entry(chain[resetPos]);
    seg.resetTokens = userTextTokens(resetText(r.kind === 'compaction' && r.reset ? r.reset.summary : ''), bpt);
  }
  ti.preamble.forEach((i, k) => {
    const v = verbatimCost(ledger, i, bpt);
    if (v) seg.preamble.push({ pos: start + k, ...v });
  });
  // Every turn at Full, costed once by the core (with the leaf's chain context: see lateRanges).
  const toolUseTurn = new Map<string, number>();
  for (let k = 0; k < ti.turns.length; k++) {
    const t = ti.turns[k];
    // Its costs as recorded (what it costs while open) from the same reading of each entry: read
    // again, each would be parsed whole a second time, and kept in the entry cache just long
    // enough to be promoted to the old generation.
    const msgs = fullTurn(ledger, scan.ctx, t, turns[k].firstPos, bpt, true, (pos, e, long) => {
      const v = isMessage(ledger, chain[pos]) ? entryVerbatimCost(e, bpt, long) : null;
      seg.verbatim[pos - start] = v?.tokens ?? 0;
      seg.verbatimFixed[pos - start] = v?.fixed ?? 0;
    });
    for (const m of msgs) {
      seg.full[k] += m.tokens;
      seg.fullFixed[k] += fixedTokens(m.content);
      for (const b of m.content) {
        if (isObject(b) && b['type'] === 'tool_use' && typeof b['id'] === 'string') toolUseTurn.set(b['id'], k);
      }
    }
    seg.prefixFull[k + 1] = seg.prefixFull[k] + seg.full[k];
    seg.prefixFullFixed[k + 1] = seg.prefixFullFixed[k] + seg.fullFixed[k];
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
    const tokens = userTextTokens(packetText(last - first + 1, pk.summary), bpt);
    seg.packets.push({ id: pk.id, pos: pk.pos, first, last, tokens });
  }
  seg.packets.sort((a, b) => a.first - b.first);
  return seg;
}

// What stands at a chain position: segments, turns and intents are in chain order, so each is a
// binary search (a linear walk at each of 10,000 turn ends would make them O(turns²)).

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

/** The turn ends of a scanned chain of `chainLength` entries: each turn's last entry, then the leaf. */
export function turnEndPositions(scan: ChainScan, chainLength: number): number[] {
  const out: number[] = [];
  for (const s of scan.segments) for (const t of s.turns) out.push(t.lastPos);
  const last = chainLength - 1;
  if (out[out.length - 1] !== last) out.push(last);
  return out;
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

/**
 * The `ts` of chain position p, read once per scan (points and answered entries are asked again).
 * Read skimmed and not kept: a series reads the last entry of every turn (a long tool result,
 * mostly), and parsed whole into the entry cache each lived just long enough to be promoted to
 * the old generation, which grew with the chain until a full collection.
 */
export function tsOf(ledger: Ledger, chain: Int32Array, scan: ChainScan, p: number): string {
  let ts = scan.tsAt.get(p);
  if (ts === undefined) scan.tsAt.set(p, (ts = ledger.skimmedEntry(chain[p]).entry.ts));
  return ts;
}
