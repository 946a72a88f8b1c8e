/**
 * What a leaf's chain gives its plan (`ChainFacts`): its context, turns and each closed turn's
 * Full facts. A leaf whose chain shares a prefix with a planned one (an append, the next entry,
 * another entry of the same chain) indexes only the entries after the two chains part, so its
 * cost follows what changed, not the chain's length.
 */
import { checkCancelled, type CancelSignal } from './cancel';
import { chainToRoot } from './chain';
import { extendChainContext, scanChain, type ChainContext } from './chain-context';
import { lastAtOrBefore } from './chain-scan';
import type { Ledger } from './ledger';
import { KIND, type LedgerIndex } from './ledger-index';
import { turnCacheOf, type FullTurnFacts } from './turn-cache';
import { buildTurnIndex, type Turn, type TurnIndex } from './turn-index';

/**
 * What a leaf's chain gives its plan, whatever the plan's options but bytes_per_token: its
 * context, turns, and each closed turn's Full facts. Kept with the plan, so that a leaf whose
 * chain shares a prefix with it indexes only the entries after that prefix (never a reference to
 * the plan it came from; never changed once built: later chain facts copy what they keep).
 */
export interface ChainFacts {
  leaf: number;
  bpt: number;
  chain: Int32Array;
  ctx: ChainContext;
  /** Chain position of the first entry after the newest reset (0 without one). */
  base: number;
  turnIndex: TurnIndex;
  /** Chain position of the last turn's directive, or -1 without turns. */
  lastTurnPos: number;
  /** The closed turns in order, with their directive's chain position, and their Full facts. */
  closed: { turn: Turn; firstPos: number }[];
  facts: FullTurnFacts[];
}

/** The chain facts of one planned leaf, or of several (the nearest is used). */
export type Planned = ChainFacts | readonly ChainFacts[];

/** How often (in turns) long loops look at the abort signal. */
export const CHECK_EVERY = 64;

/**
 * Closed turns and their facts from turn `fromTurn` on (at chain position `pos`), added to `f`.
 * Pauses (yields) after each turn: a turn not in the TurnCache is parsed again (every turn of a
 * 200k-entry chain for a new bytes_per_token: seconds), and a caller in steps answers others meanwhile.
 */
function* addTurns(
  ledger: Ledger,
  f: ChainFacts,
  fromTurn: number,
  pos: number,
  signal?: CancelSignal,
): Generator<void, ChainFacts> {
  const cache = turnCacheOf(ledger);
  const turns = f.turnIndex.turns;
  for (let k = fromTurn; k < turns.length; k++) {
    const t = turns[k];
    f.lastTurnPos = pos;
    if (!t.open) {
      if (f.closed.length % CHECK_EVERY === 0) checkCancelled(signal);
      f.closed.push({ turn: t, firstPos: pos });
      f.facts.push(cache.fullFacts(ledger, f.ctx, t, pos, f.bpt));
      yield;
    }
    pos += t.entries.length;
  }
  return f;
}

/** The chain facts of `leaf`, read from its whole chain. */
export function* freshChainFacts(
  ledger: Ledger,
  leaf: number,
  bpt: number,
  signal?: CancelSignal,
): Generator<void, ChainFacts> {
  const index = ledger.index;
  const chain = chainToRoot(index, leaf);
  const ctx = scanChain(ledger, chain);
  const base = ctx.resetPos + 1;
  const turnIndex = buildTurnIndex(index, ctx.resetPos >= 0 ? chain.subarray(base) : chain);
  const f: ChainFacts = { leaf, bpt, chain, ctx, base, turnIndex, lastTurnPos: -1, closed: [], facts: [] };
  return yield* addTurns(ledger, f, 0, base + turnIndex.preamble.length, signal);
}

/** Where a leaf's chain leaves a planned leaf's: the newest entry both hold, and the entries below it. */
export interface Meeting {
  prev: ChainFacts;
  /** Chain position, in `prev.chain`, of the newest entry the two chains share. */
  pos: number;
  /** The leaf's chain below that entry, root side first (empty when the leaf is on `prev`'s chain). */
  path: number[];
}

/**
 * Of the planned leaves `kept` (at `bpt`), the one whose chain shares the most with `leaf`'s: `leaf`'s
 * chain is walked up once, a cursor per kept chain moving down beside it (chains run in file order:
 * a parent stands before its children), so the cost follows the entries walked, not a lookup each.
 */
export function nearestPlanned(
  index: LedgerIndex,
  kept: readonly ChainFacts[],
  leaf: number,
  bpt: number,
): Meeting | null {
  const usable = kept.filter((f) => f.bpt === bpt && f.turnIndex.turns.length > 0);
  if (usable.length === 0) return null;
  // Each cursor starts at the last entry at or before the leaf, found by halving: from the chain's
  // end it walked every entry below the leaf (a key on a 1 GiB session's chain: hundreds of
  // thousands, per kept chain, per key).
  const at = usable.map((f) => lastAtOrBefore(f.chain.length, (p) => f.chain[p], leaf));
  const path: number[] = [];
  for (let i = leaf; i >= 0; i = index.parent[i]) {
    for (let c = 0; c < usable.length; c++) {
      const chain = usable[c].chain;
      let p = at[c];
      while (p >= 0 && chain[p] > i) p--;
      at[c] = p;
      if (p >= 0 && chain[p] === i) return { prev: usable[c], pos: p, path: path.reverse() };
    }
    path.push(i);
  }
  return null;
}

/** `prefix` followed by `path`, in a new array (an Int32Array: copied outside the JS heap, no GC to follow). */
function joined(prefix: Int32Array, path: readonly number[]): Int32Array {
  const out = new Int32Array(prefix.length + path.length);
  out.set(prefix);
  out.set(path, prefix.length);
  return out;
}

/** Whether chain positions `from` on hold an entry the chain context reads (a reset, an intent, a presentation, a card, a packet). */
function holdsContext(index: LedgerIndex, chain: Int32Array, from: number): { any: boolean; presentation: boolean } {
  let any = false;
  for (let pos = from; pos < chain.length; pos++) {
    const k = index.kind[chain[pos]];
    if (k === KIND.presentation) return { any: true, presentation: true };
    if (k === KIND.compaction || k === KIND.intent || k === KIND.turn_card) any = true;
  }
  return { any, presentation: false };
}

/** The turn of `f` whose entries hold chain position `pos` (-1: before the first directive). */
function turnHolding(f: ChainFacts, pos: number): number {
  const start = (k: number): number => (k < f.closed.length ? f.closed[k].firstPos : f.lastTurnPos);
  return lastAtOrBefore(f.turnIndex.turns.length, start, pos);
}

/**
 * The chain facts of `leaf` from those of a planned leaf whose chain shares a prefix with it (the
 * leaf above before an append, the next entry, any entry of the same chain clicked before or after):
 * every turn that ends before the two chains part is kept as it is (a turn's entries end at the next
 * directive); the turn they part in and the entries below are indexed again. Null when they part
 * before the first turn, or on either side of a reset (the turns start over).
 */
export function* sharedChainFacts(
  ledger: Ledger,
  meeting: Meeting,
  leaf: number,
  bpt: number,
  signal?: CancelSignal,
): Generator<void, ChainFacts | null> {
  const { prev, pos, path } = meeting;
  const turns = prev.turnIndex.turns;
  const q = turnHolding(prev, pos);
  if (q < 0) return null;
  const index = ledger.index;
  const trimmed = pos < prev.chain.length - 1;
  const prefix = trimmed ? prev.chain.subarray(0, pos + 1) : prev.chain;
  let prefixCtx: ChainContext = { ...prev.ctx, chain: prefix };
  let presentationsKept = true;
  if (trimmed) {
    const dropped = holdsContext(index, prev.chain, pos + 1);
    if (dropped.any) {
      prefixCtx = scanChain(ledger, prefix);
      // Nothing dropped presented a card call: the same presentations, and so the same kept facts.
      if (!dropped.presentation) prefixCtx.presentations = prev.ctx.presentations;
      else presentationsKept = false;
    }
  }
  const chain = path.length > 0 ? joined(prefix, path) : prefix;
  const ctx = extendChainContext(ledger, prefixCtx, chain, prefix.length);
  if (ctx.resetPos !== prev.ctx.resetPos) return null;
  const qPos = q < prev.closed.length ? prev.closed[q].firstPos : prev.lastTurnPos;
  const again = buildTurnIndex(index, chain.subarray(qPos));
  const closed = prev.closed.slice(0, q);
  let facts: FullTurnFacts[];
  const cache = turnCacheOf(ledger);
  if (presentationsKept && ctx.presentations === prev.ctx.presentations) {
    // The same presentations: no card call of a kept turn acks otherwise, so its facts stand.
    facts = prev.facts.slice(0, q);
    cache.countReused(q);
  } else {
    // Only the turns whose card calls a changed presentation names are looked up again (the
    // cache checks their acks); every other turn's facts stand.
    const kept = prev.facts.slice(0, q);
    const reshape = cache.factsToReshape(kept, prev.ctx.presentations, ctx.presentations);
    let shaped = 0;
    if (reshape.size > 0) {
      for (let k = 0; k < q; k++) {
        if (!reshape.has(kept[k])) continue;
        checkCancelled(signal);
        kept[k] = cache.fullFacts(ledger, ctx, closed[k].turn, closed[k].firstPos, bpt);
        shaped++;
      }
    }
    cache.countReused(q - shaped);
    facts = kept;
  }
  const f: ChainFacts = {
    leaf,
    bpt,
    chain,
    ctx,
    base: prev.base,
    turnIndex: { preamble: prev.turnIndex.preamble, turns: turns.slice(0, q).concat(again.turns) },
    lastTurnPos: qPos,
    closed,
    facts,
  };
  return yield* addTurns(ledger, f, q, qPos, signal);
}
