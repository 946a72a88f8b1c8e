/**
 * The fate of an entry: how it reached the model at every turn end of a chain from its own on,
 * under one plan and profile — as itself (Full, open, preamble, the tail, a reset's summary),
 * inside its turn's Card or a Packet, hidden behind a newer reset, or not sent at all — and the
 * first turn end where it stopped being sent as itself, with the reason in words.
 *
 * The plan at each turn end comes from a plan engine through `FatePlanner` (a narrow seam:
 * the context series' per-turn figures satisfy it as they are), so this module decides only
 * what the plan means for one entry. It is checked against `project()` at every turn end
 * (`entry-fate.test.ts`).
 */
import type { ChainContext } from './chain-context';
import { lastAtOrBefore } from './chain-scan';
import { fullMessage, verbatimMessage } from './full-fidelity';
import type { Ledger } from './ledger';
import { messageTokens } from './tokens';

/**
 * How an entry reached the model at one turn end. The first six are the §9 fidelities of the
 * projected message that carries it (`system`: the header's system prompt and tools); then
 * `reset-hidden` (it stands before the newest reset) and `not-sent`.
 */
export type FateFidelity =
  'system' | 'preamble' | 'full' | 'open' | 'card' | 'packet' | 'reset' | 'tail' | 'reset-hidden' | 'not-sent';

/** Fidelities in which the entry's own content is what the model gets. */
const AS_ITSELF: ReadonlySet<FateFidelity> = new Set(['system', 'preamble', 'full', 'open', 'reset']);

/** Per closed turn, as the plan engine writes them. */
export const FATE_FULL = 0;
export const FATE_CARD = 1;
export const FATE_PACKET = 2;

/** A turn of a reset segment, by chain position; `cards` name it anywhere on the chain, in chain order. */
export interface FateTurn {
  id: string;
  firstPos: number;
  lastPos: number;
  cards: readonly { pos: number; tokens: number }[];
}

/** A usable packet of a segment: its range in turn positions, the chain position from which it exists. */
export interface FatePacket {
  id: string;
  pos: number;
  first: number;
  last: number;
  tokens: number;
}

/** The entries after one reset (resetPos -1: from the root), up to the next reset. */
export interface FateSegment {
  resetPos: number;
  resetTokens: number;
  turns: readonly FateTurn[];
  packets: readonly FatePacket[];
  /** prefixFull[k]: the Full cost of the segment's first k turns. */
  prefixFull: Float64Array;
}

/** What the plan engine found on the chain once (the same for every budget). */
export interface FateScan {
  segments: readonly FateSegment[];
  intents: readonly { pos: number }[];
  ctx: ChainContext;
}

/** The plan at one turn end: fidelity per closed turn of its segment. */
export interface FatePlan {
  seg: FateSegment | null;
  closed: number;
  fidelity: Uint8Array;
  packetsUsed: readonly string[];
  available: number;
  overBudget: number;
  total: number;
}

/** The seam to the plan engine: the chain's scan and the plan at a chain position. */
export interface FatePlanner {
  readonly scan: FateScan;
  planAt(p: number): FatePlan;
}

/** One turn end of an entry's fate. */
export interface FateRow {
  /** Chain-wide turn number (1-based) of the turn that ends here; 0 before the first turn. */
  turn: number;
  /** The turn end's entry (the turn's last entry, or the leaf). */
  at: string;
  fidelity: FateFidelity;
  /** The packet that carries it (`packet`), with the turns it covers (chain-wide numbers). */
  packet: { id: string; first: number; last: number } | null;
  /** The reset that hides it (`reset-hidden`) or that it is (`reset`). */
  reset: string | null;
  /** Tokens of the message that carries it (0 when none, and for the tail). */
  tokens: number;
  /** What the plan had at this turn end: the budget for closed turns, and what they cost all at Full. */
  available: number;
  fullNeed: number;
  total: number;
  overBudget: number;
}

/** The first turn end from which the entry is no longer sent as itself. */
export interface FateChange {
  row: number;
  turn: number;
  at: string;
  fidelity: FateFidelity;
  /** Sent as itself again at a later turn end (the budget is per turn end). */
  comesBack: boolean;
  reason: string;
}

export interface EntryFate {
  entry: string;
  kind: string;
  leaf: string;
  /** Chain-wide turn number of the entry's own turn (0: preamble, header, reset). */
  turn: number;
  rows: FateRow[];
  /** null: sent as itself at every turn end shown. */
  change: FateChange | null;
}

/** What the fate needs of the entry itself, read once. */
interface EntryFacts {
  pos: number;
  id: string;
  kind: string;
  /** Its shape in a closed turn at Full (null: dropped there) and as recorded (null: no message). */
  fullTokens: number | null;
  verbatimTokens: number | null;
  /** A control nudge, a message of only thinking, an entry no model sees: why Full drops it. */
  dropped: string | null;
  /** turn_card: the turn it names. */
  cardFor: string | null;
  isIntent: boolean;
}

/** Turn ends of a scan: each turn's last entry, and the leaf (the context series' points). */
export function turnEnds(scan: FateScan, chainLength: number): number[] {
  const out: number[] = [];
  for (const s of scan.segments) for (const t of s.turns) out.push(t.lastPos);
  const last = chainLength - 1;
  if (out[out.length - 1] !== last) out.push(last);
  return out;
}

/** The fate of the entry at chain position `pos` at every turn end from it on, pausing (yielding) after each. */
export function* entryFateSteps(
  ledger: Ledger,
  planner: FatePlanner,
  pos: number,
  bpt: number,
  overridden: ReadonlySet<string> = new Set(),
): Generator<void, EntryFate> {
  const fates = yield* entryFatesSteps(ledger, planner, [pos], bpt, overridden);
  return fates[0];
}

/** Fates of several entries of one chain, each turn end planned once for all of them. */
export function* entryFatesSteps(
  ledger: Ledger,
  planner: FatePlanner,
  positions: readonly number[],
  bpt: number,
  overridden: ReadonlySet<string> = new Set(),
): Generator<void, EntryFate[]> {
  const { scan } = planner;
  const chain = scan.ctx.chain;
  const numbering = new TurnNumbers(scan);
  const facts = positions.map((p) => entryFacts(ledger, scan.ctx, p, bpt));
  const fates: EntryFate[] = facts.map((f) => ({
    entry: f.id,
    kind: f.kind,
    leaf: ledger.index.ids[chain[chain.length - 1]],
    turn: numbering.ownTurn(f.pos),
    rows: [],
    change: null,
  }));
  const from = Math.min(...positions);
  for (const p of turnEnds(scan, chain.length)) {
    if (p < from) continue;
    const plan = planner.planAt(p);
    const segIx = segmentIndexAt(scan, p);
    facts.forEach((f, k) => {
      if (f.pos <= p) fates[k].rows.push(fateAt(ledger, scan, numbering, plan, segIx, p, f));
    });
    yield;
  }
  fates.forEach((fate, k) => (fate.change = firstChange(ledger, scan, fate, facts[k], overridden)));
  return fates;
}

function entryFacts(ledger: Ledger, ctx: ChainContext, pos: number, bpt: number): EntryFacts {
  const i = ctx.chain[pos];
  const e = ledger.entry(i);
  const verbatim = verbatimMessage(e);
  const full = verbatim ? fullMessage(ledger, ctx, pos) : null;
  let dropped: string | null = null;
  if (e.kind === 'message' && !full) {
    dropped = e.controlNudge
      ? 'a closed turn drops control nudges'
      : 'nothing of it is left at Full (thinking is dropped from closed turns)';
  } else if (e.kind === 'malformed') dropped = `it is a malformed ${e.recordedKind} entry, which no projection uses`;
  else if (e.kind === 'unknown') dropped = `its kind ${JSON.stringify(e.recordedKind)} is unknown, never model-visible`;
  else if (!verbatim) dropped = `${e.kind} entries are not sent to the model`;
  return {
    pos,
    id: ledger.index.ids[i],
    kind: e.kind === 'malformed' || e.kind === 'unknown' ? e.recordedKind : e.kind,
    fullTokens: full ? messageTokens(full.content, bpt) : null,
    verbatimTokens: verbatim ? messageTokens(verbatim.content, bpt) : null,
    dropped,
    cardFor: e.kind === 'turn_card' ? e.turn_card.turn_id : null,
    isIntent: e.kind === 'intent',
  };
}

/** Chain-wide turn numbers: segment k's turn j is number offset[k] + j + 1. */
class TurnNumbers {
  readonly offset: number[] = [];
  constructor(private readonly scan: FateScan) {
    let n = 0;
    for (const s of scan.segments) {
      this.offset.push(n);
      n += s.turns.length;
    }
  }

  /** The number of the turn holding chain position p (the last turn started at or before it), 0 before any. */
  atOrBefore(p: number): number {
    const s = segmentIndexAt(this.scan, p);
    for (let k = s; k >= 0; k--) {
      const j = turnIndexAt(this.scan.segments[k], p);
      if (j >= 0) return this.offset[k] + j + 1;
    }
    return 0;
  }

  /** The number of the turn that holds p, 0 when p stands in no turn (header, preamble, a reset). */
  ownTurn(p: number): number {
    const s = segmentIndexAt(this.scan, p);
    const seg = this.scan.segments[s];
    const j = turnIndexAt(seg, p);
    return j >= 0 && p <= seg.turns[j].lastPos ? this.offset[s] + j + 1 : 0;
  }
}

function segmentIndexAt(scan: FateScan, p: number): number {
  return Math.max(
    0,
    lastAtOrBefore(scan.segments.length, (k) => scan.segments[k].resetPos, p),
  );
}

function turnIndexAt(seg: FateSegment, p: number): number {
  return lastAtOrBefore(seg.turns.length, (k) => seg.turns[k].firstPos, p);
}

/** How entry `f` reached the model at turn end `p`: the first projected message (in order) that carries it. */
function fateAt(
  ledger: Ledger,
  scan: FateScan,
  numbering: TurnNumbers,
  plan: FatePlan,
  segIx: number,
  p: number,
  f: EntryFacts,
): FateRow {
  const seg = scan.segments[segIx];
  const fullNeed = seg.prefixFull[Math.min(plan.closed, seg.turns.length)];
  const row: FateRow = {
    turn: numbering.atOrBefore(p),
    at: ledger.index.ids[scan.ctx.chain[p]],
    fidelity: 'not-sent',
    packet: null,
    reset: null,
    tokens: 0,
    available: plan.available,
    fullNeed,
    total: plan.total,
    overBudget: plan.overBudget,
  };
  const resetId = seg.resetPos >= 0 ? ledger.index.ids[scan.ctx.chain[seg.resetPos]] : null;
  const tail = (): FateRow => {
    const intent = lastAtOrBefore(scan.intents.length, (k) => scan.intents[k].pos, p);
    const newest = intent >= 0 && scan.intents[intent].pos === f.pos;
    if (newest || f.pos === p) row.fidelity = 'tail';
    return row;
  };
  if (f.pos === 0 && f.kind === 'header') return { ...row, fidelity: 'system' };
  if (f.pos === seg.resetPos) return { ...row, fidelity: 'reset', reset: resetId, tokens: seg.resetTokens };
  if (f.pos < seg.resetPos) {
    tail();
    if (row.fidelity === 'tail') return row;
    return { ...row, fidelity: 'reset-hidden', reset: resetId };
  }
  // A turn card or a packet stands in the projection where its turn or range does; one not in use
  // is, like any other entry of a turn, carried by its own turn's Card or Packet.
  if (f.cardFor !== null) {
    const j = seg.turns.findIndex((t) => t.id === f.cardFor);
    if (j >= 0 && j < plan.closed && plan.fidelity[j] === FATE_CARD) {
      const card = newestCard(seg.turns[j], p);
      if (card && card.pos === f.pos) return { ...row, fidelity: 'card', tokens: card.tokens };
    }
  }
  if (f.kind === 'compaction') {
    const pk = seg.packets.find((q) => q.id === f.id);
    if (pk && plan.packetsUsed.includes(pk.id)) {
      return { ...row, fidelity: 'packet', packet: packetRange(numbering, segIx, pk), tokens: pk.tokens };
    }
  }
  // An intent is carried by the tail (while it is the newest), never by its turn's Card or Packet.
  if (f.isIntent) return tail();
  const j = turnIndexAt(seg, f.pos);
  if (j < 0 || f.pos > seg.turns[j].lastPos) {
    // The preamble: sent as recorded.
    if (f.verbatimTokens !== null) return { ...row, fidelity: 'preamble', tokens: f.verbatimTokens };
    return tail();
  }
  if (j >= plan.closed) {
    if (f.verbatimTokens !== null) return { ...row, fidelity: 'open', tokens: f.verbatimTokens };
    return tail();
  }
  const fid = plan.fidelity[j];
  if (fid === FATE_CARD) {
    const card = newestCard(seg.turns[j], p);
    return { ...row, fidelity: 'card', tokens: card ? card.tokens : 0 };
  }
  if (fid === FATE_PACKET) {
    const pk = seg.packets.find((q) => q.first <= j && j <= q.last && plan.packetsUsed.includes(q.id));
    if (pk) return { ...row, fidelity: 'packet', packet: packetRange(numbering, segIx, pk), tokens: pk.tokens };
  }
  if (f.fullTokens !== null) return { ...row, fidelity: 'full', tokens: f.fullTokens };
  return tail();
}

function newestCard(t: FateTurn, p: number): { pos: number; tokens: number } | null {
  for (let c = t.cards.length - 1; c >= 0; c--) if (t.cards[c].pos <= p) return t.cards[c];
  return null;
}

function packetRange(numbering: TurnNumbers, segIx: number, pk: FatePacket): FateRow['packet'] {
  const base = numbering.offset[segIx];
  return { id: pk.id, first: base + pk.first + 1, last: base + pk.last + 1 };
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const short = (id: string): string => (id.length > 12 ? id.slice(0, 8) + '…' : id);

/** The first row not sent as itself, and why, in words (the one place reasons are written). */
function firstChange(
  ledger: Ledger,
  scan: FateScan,
  fate: EntryFate,
  f: EntryFacts,
  overridden: ReadonlySet<string>,
): FateChange | null {
  // A turn card or a packet is "itself" when it is sent as what it is; only an intent's content is in the tail
  // (the tail names the turn end's entry too, but sends only its time).
  const itself = (r: FateRow): boolean =>
    AS_ITSELF.has(r.fidelity) ||
    (f.isIntent && r.fidelity === 'tail') ||
    (f.cardFor !== null && r.fidelity === 'card') ||
    (f.kind === 'compaction' && r.fidelity === 'packet' && r.packet?.id === f.id);
  const k = fate.rows.findIndex((r) => !itself(r));
  if (k < 0) return null;
  const r = fate.rows[k];
  const comesBack = fate.rows.slice(k + 1).some(itself);
  const when = comesBack ? `at turn ${r.turn}` : `from turn ${r.turn} on`;
  const budget = `the closed turns needed ${fmt(r.fullNeed)} tokens at Full, ${fmt(r.fullNeed - r.available)} over the budget of ${fmt(r.available)}`;
  const ownTurnId = ownTurnIdOf(scan, f.pos);
  const forced = ownTurnId !== null && overridden.has(ownTurnId);
  let reason: string;
  switch (r.fidelity) {
    case 'card':
      reason = forced
        ? `${when}, its turn is sent as a card: an override forces it`
        : `${when}, its turn is sent as a card because ${budget}`;
      break;
    case 'packet': {
      const pk = r.packet;
      const range = pk ? `packet ${short(pk.id)} replaced turns ${pk.first}–${pk.last}` : 'a packet replaced its turn';
      reason = forced ? `${when}, ${range}: an override forces it` : `${when}, ${range} because ${budget}`;
      break;
    }
    case 'reset-hidden':
      reason = `${when}, it stands before reset ${short(r.reset ?? '')}, which replaced everything before it with a summary`;
      break;
    default:
      reason = `${when}, it is not sent: ${notSentWhy(ledger, scan, fate, f, r)}`;
  }
  return { row: k, turn: r.turn, at: r.at, fidelity: r.fidelity, comesBack, reason };
}

function ownTurnIdOf(scan: FateScan, pos: number): string | null {
  const seg = scan.segments[segmentIndexAt(scan, pos)];
  const j = turnIndexAt(seg, pos);
  return j >= 0 && pos <= seg.turns[j].lastPos ? seg.turns[j].id : null;
}

function notSentWhy(ledger: Ledger, scan: FateScan, fate: EntryFate, f: EntryFacts, r: FateRow): string {
  if (f.isIntent) {
    const newer = scan.intents.find((x) => x.pos > f.pos);
    return newer
      ? `a newer intent (${short(ledger.index.ids[scan.ctx.chain[newer.pos]])}) replaced it in the tail`
      : 'only the newest intent is sent';
  }
  if (f.cardFor !== null) return `its turn (${f.cardFor}) is not sent as this card`;
  if (f.kind === 'compaction') return 'the plan does not use this packet';
  if (f.dropped !== null) {
    const wasOpen = fate.rows.some((x) => x.fidelity === 'open');
    return wasOpen && r.fidelity === 'not-sent' ? `its turn is closed, and ${f.dropped}` : f.dropped;
  }
  return 'nothing in the projection carries it';
}
