/**
 * §5/§6 for one leaf, incrementally: the plan is decided on numbers (each closed turn's Full
 * cost from the TurnCache, card and packet costs), and message bodies are shaped only for
 * the range asked (`messages(start, end)`). Neighbouring leaves share every closed turn, so
 * a new leaf shapes only its open turn, its tail and the turns it does not share; a leaf whose
 * chain shares a prefix with a planned one (an append, the next entry, another entry of the same
 * chain) also indexes only the entries after the two chains part (`ChainFacts`, chain-facts.ts),
 * so its cost follows what changed, not the chain's length.
 */
import type {
  Fidelity,
  PlanRow,
  ProjectedMessage,
  Projection,
  TurnFidelity,
  TurnOverride,
} from '../../shared/ledger-types';
import { allPlanRows, type PlanRows } from '../../shared/plan-rows';
import { stringifyJson } from '../../shared/json-text';
import { atOnce, checkCancelled, type CancelSignal } from './cancel';
import type { ChainContext, PacketRef } from './chain-context';
import {
  CHECK_EVERY,
  freshChainFacts,
  nearestPlanned,
  sharedChainFacts,
  type ChainFacts,
  type Planned,
} from './chain-facts';
import type { Ledger } from './ledger';
import {
  cardMessage,
  fullTurn,
  headerContext,
  packetMessage,
  projected,
  resetText,
  tailMessage,
  usablePackets,
  userText,
  type UsablePacket,
  verbatimMessages,
} from './message-shapes';
import { FID_CARD, FID_PACKET, noteText, overridesByPosition, planClosedTurns, type EnginePacket } from './plan-engine';
import { DEFAULT_PROFILE, tokensOf, type CapacityProfile } from './tokens';
import { turnCacheOf, type FullTurnFacts } from './turn-cache';
import type { Turn, TurnIndex } from './turn-index';

export interface PlanOptions {
  /** 'none' is derive_messages; 'auto' is derive_with_plan. */
  plan: 'none' | 'auto';
  profile?: CapacityProfile;
  overrides?: ReadonlyMap<string, TurnOverride>;
  /** Checked between turns: once aborted, the work stops with WorkCancelled. */
  signal?: CancelSignal;
}

/** What stands in the projection for one closed turn, in chain order. */
type Segment =
  | { kind: 'full'; turn: Turn; firstPos: number; facts: FullTurnFacts }
  | { kind: 'card'; turn: Turn; card: number }
  /** A packet's message sits at the first turn of its range; the other turns have `kind: 'behind'`. */
  | { kind: 'packet'; turn: Turn; ref: PacketRef; turns: number }
  | { kind: 'behind'; turn: Turn };

/** The projection of a leaf without its message bodies, and the way to shape any range of them. */
export interface LeafPlan {
  /** The projection with `messages` empty and without its plan: see `messages()`, `planRows`, `projectionOf`. */
  summary: Omit<Projection, 'plan'>;
  messageCount: number;
  /** The plan's rows, made when read: a view reads counts and a window of them, not one object per turn. */
  planRows: PlanRows;
  /** chain_to_root(leaf), root first. */
  chain: Int32Array;
  ctx: ChainContext;
  /** Chain position of the first entry after the newest reset (0 without one). */
  base: number;
  turnIndex: TurnIndex;
  /**
   * Messages `start … end-1`, shaped now (Full turns read back from the ledger). `signal` is the
   * asking request's: a plan is cached and serves later requests, so it never keeps the signal of
   * the request that built it (a cancelled first asker must not cancel the next one). `oneRead`:
   * the caller reads the messages once, in order (an export, the CLI): their entries are parsed
   * for it alone, not kept in the entry cache, tool results skimmed (EntryReader.skimmedEntry).
   */
  messages(start: number, end: number, signal?: CancelSignal, oneRead?: boolean): ProjectedMessage[];
  /** Indices of the messages whose `source_ids` name the entry at chain position `pos`, ascending. */
  projectedAs(pos: number): number[];
  /** The fidelity of message `m` (0 ≤ m < messageCount), without shaping it. */
  fidelityOf(m: number): Fidelity;
  /** What the chain gave the plan: a leaf below this one can start from it (planLeaf's `from`). */
  chainFacts: ChainFacts;
  /** The closed turns in plan order, and the usable packets (§6) with their ranges in it. */
  closedTurns: Turn[];
  packets: UsablePacket[];
}

/**
 * The plan of `leaf`'s projection; bodies are shaped only when `messages()` asks. With `from` (the
 * chain facts of planned leaves), the chain is indexed only where it parts from the nearest of them.
 */
export function planLeaf(ledger: Ledger, leaf: number, opts: PlanOptions, from?: Planned): LeafPlan {
  return atOnce(planLeafSteps(ledger, leaf, opts, from));
}

/** `planLeaf`, pausing (yielding) after each closed turn whose facts it reads (see chain-facts.ts addTurns). */
export function* planLeafSteps(
  ledger: Ledger,
  leaf: number,
  opts: PlanOptions,
  from?: Planned,
): Generator<void, LeafPlan> {
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const bpt = profile.bytes_per_token;
  const index = ledger.index;
  const cache = turnCacheOf(ledger);
  const meeting = from ? nearestPlanned(index, Array.isArray(from) ? from : [from], leaf, bpt) : null;
  const chainFacts =
    (meeting && (yield* sharedChainFacts(ledger, meeting, leaf, bpt, opts.signal))) ??
    (yield* freshChainFacts(ledger, leaf, bpt, opts.signal));
  const { chain, ctx, base, turnIndex, closed, facts } = chainFacts;
  const { system, tools } = headerContext(ledger);

  const head: ProjectedMessage[] = [];
  if (ctx.resetPos >= 0) {
    head.push(projected(userText(resetText(ctx.resetSummary)), 'reset', null, [index.ids[chain[ctx.resetPos]]], bpt));
  }
  head.push(...verbatimMessages(ledger, turnIndex.preamble, 'preamble', null, bpt));

  const lastTurn = turnIndex.turns.at(-1);
  const openTurn = lastTurn?.open ? lastTurn : undefined;
  const tail: ProjectedMessage[] = [];
  if (openTurn) tail.push(...verbatimMessages(ledger, openTurn.entries, 'open', openTurn.id, bpt));
  tail.push(tailMessage(ledger, ctx, leaf, bpt));

  const fixedCost = [...head, ...tail].reduce((n, m) => n + m.tokens, 0);
  const systemTokens = tokensOf(system, bpt);
  const toolsTokens = cache.memo(`tools:${index.header}:${bpt}`, () => tokensOf(stringifyJson(tools), bpt));
  const available = profile.window - profile.reserve - systemTokens - toolsTokens - fixedCost;

  const n = closed.length;
  const costs = { full: new Float64Array(n), card: new Float64Array(n) };
  const cardEntry = new Int32Array(n).fill(-1);
  for (let k = 0; k < n; k++) {
    const id = closed[k].turn.id;
    const c = ctx.cards.size === 0 ? undefined : ctx.cards.get(id);
    costs.full[k] = facts[k].tokens;
    costs.card[k] = c === undefined ? -1 : cache.memo(`card:${c}:${bpt}`, () => cardMessage(ledger, c, id, bpt).tokens);
    if (c !== undefined) cardEntry[k] = c;
  }
  const closedTurns = closed.map((c) => c.turn);
  const usable: UsablePacket[] = usablePackets(ctx, closedTurns);
  const packets: EnginePacket[] = usable.map(({ ref, first, last }) => {
    const turns = last - first + 1;
    const tokens = cache.memo(`packet:${ref.entry}:${turns}:${bpt}`, () => {
      return packetMessage(ledger, ref, turns, closedTurns[first].id, bpt).tokens;
    });
    return { id: ref.id, first, last, tokens };
  });
  let byId: Map<string, number> | null = null;
  const position = (id: string): number | undefined => (byId ??= new Map(closedTurns.map((t, k) => [t.id, k]))).get(id);
  const overrides = overridesByPosition(opts.overrides, position, n);
  const result = planClosedTurns(costs, n, packets, available, opts.plan === 'auto', overrides);

  /** The packet each turn behind one stands behind (index in `packets`). */
  const behind = new Int32Array(n);
  for (const j of result.packetsUsed) behind.fill(j, packets[j].first, packets[j].last + 1);
  const fid = result.fidelity;
  /** Message index where each segment starts, and one past the last segment. */
  const segStart = new Int32Array(n + 1);
  let at = head.length;
  for (let k = 0; k < n; k++) {
    segStart[k] = at;
    const f = fid[k];
    if (f === FID_PACKET) {
      if (packets[behind[k]].first === k) at += 1;
    } else if (f === FID_CARD) at += 1;
    else at += facts[k].sources.length;
  }
  const fidelityName = (k: number): TurnFidelity =>
    fid[k] === FID_PACKET ? 'packet' : fid[k] === FID_CARD ? 'card' : 'full';
  const rowTokens = (k: number): number =>
    fid[k] === FID_PACKET ? packets[behind[k]].tokens : fid[k] === FID_CARD ? costs.card[k] : costs.full[k];
  const planRows: PlanRows = {
    length: n,
    turnId: (k) => closedTurns[k].id,
    fidelity: fidelityName,
    tokens: rowTokens,
    row: (k): PlanRow => ({
      turn_id: closedTurns[k].id,
      fidelity: fidelityName(k),
      packet_id: fid[k] === FID_PACKET ? packets[behind[k]].id : null,
      tokens: rowTokens(k),
    }),
  };
  /**
   * What stands for closed turn k, made when a message range or a lookup needs it: a leaf's plan
   * keeps typed arrays per turn, not an object per turn (a long chain has tens of thousands).
   */
  const segment = (k: number): Segment => {
    const turn = closedTurns[k];
    const f = fid[k];
    if (f === FID_PACKET) {
      const j = behind[k];
      const p = packets[j];
      return p.first === k
        ? { kind: 'packet', turn, ref: usable[j].ref, turns: p.last - p.first + 1 }
        : { kind: 'behind', turn };
    }
    if (f === FID_CARD) return { kind: 'card', turn, card: cardEntry[k] };
    return { kind: 'full', turn, firstPos: closed[k].firstPos, facts: facts[k] };
  };
  const bodyTokens = result.fullTokens + result.cardTokens + result.packetTokens;
  segStart[n] = at;
  const tailStart = at;
  const messageCount = at + tail.length;
  const messageTotal = fixedCost + bodyTokens;

  const segmentMessages = (k: number, oneRead: boolean): ProjectedMessage[] => {
    const s = segment(k);
    switch (s.kind) {
      case 'full':
        return fullTurn(ledger, ctx, s.turn, s.firstPos, bpt, oneRead);
      case 'card':
        return [cardMessage(ledger, s.card, s.turn.id, bpt)];
      case 'packet':
        return [packetMessage(ledger, s.ref, s.turns, s.turn.id, bpt)];
      case 'behind':
        return [];
    }
  };

  const messages = (start: number, end: number, signal?: CancelSignal, oneRead = false): ProjectedMessage[] => {
    const from = Math.max(0, start);
    const to = Math.min(messageCount, end);
    const out: ProjectedMessage[] = [];
    if (from >= to) return out;
    for (let m = from; m < Math.min(to, head.length); m++) out.push(head[m]);
    if (to > head.length && from < tailStart) {
      let k = segmentAt(segStart, closed.length, Math.max(from, head.length));
      for (; k < closed.length && segStart[k] < to; k++) {
        if (k % CHECK_EVERY === 0) checkCancelled(signal);
        if (segStart[k + 1] <= from) continue;
        const msgs = segmentMessages(k, oneRead);
        for (let j = 0; j < msgs.length; j++) {
          const m = segStart[k] + j;
          if (m >= from && m < to) out.push(msgs[j]);
        }
      }
    }
    for (let m = Math.max(from, tailStart); m < to; m++) out.push(tail[m - tailStart]);
    return out;
  };

  // Sources named outside Full turns (reset, preamble, cards, packets, open turn, tail): few.
  const named = new Map<string, number[]>();
  const name = (id: string, m: number): void => {
    const list = named.get(id);
    if (list) list.push(m);
    else named.set(id, [m]);
  };
  head.forEach((m, k) => m.source_ids.forEach((id) => name(id, k)));
  for (let k = 0; k < n; k++) {
    if (fid[k] === FID_CARD) name(index.ids[cardEntry[k]], segStart[k]);
    else if (fid[k] === FID_PACKET && packets[behind[k]].first === k) name(usable[behind[k]].ref.id, segStart[k]);
  }
  tail.forEach((m, k) => m.source_ids.forEach((id) => name(id, tailStart + k)));
  const closedPos = new Int32Array(closed.length);
  for (let k = 0; k < closed.length; k++) closedPos[k] = closed[k].firstPos;

  const projectedAs = (p: number): number[] => {
    const i = chain[p];
    const extra = named.get(index.ids[i]) ?? [];
    const k = segmentAt(closedPos, closed.length, p);
    if (k < 0 || fid[k] === FID_CARD || fid[k] === FID_PACKET) return extra;
    if (p >= closedPos[k] + closedTurns[k].entries.length) return extra;
    const rank = binarySearch(facts[k].sources, i);
    if (rank < 0) return extra;
    const m = segStart[k] + rank;
    return extra.length === 0 ? [m] : [...extra, m].sort((a, b) => a - b);
  };

  const fidelityOf = (m: number): Fidelity => {
    if (m < head.length) return head[m].fidelity;
    if (m >= tailStart) return tail[m - tailStart].fidelity;
    return fidelityName(segmentAt(segStart, closed.length, m));
  };

  const summary: Omit<Projection, 'plan'> = {
    leaf: index.ids[leaf],
    system,
    tools,
    messages: [],
    tokens: {
      system: systemTokens,
      tools: toolsTokens,
      messages: messageTotal,
      total: systemTokens + toolsTokens + messageTotal,
      available,
    },
    over_budget: Math.max(0, result.need - available),
    notes: result.notes.map((note) => noteText(note, closedTurns[note.turn].id)),
  };
  return {
    summary,
    messageCount,
    planRows,
    chain,
    ctx,
    base,
    turnIndex,
    messages,
    projectedAs,
    fidelityOf,
    chainFacts,
    closedTurns,
    packets: usable,
  };
}

/** The leaf's whole projection with `messages` (all of them, or none for a summary), every plan row made. */
export function projectionOf(lp: LeafPlan, messages: ProjectedMessage[]): Projection {
  const { leaf, system, tools, tokens, over_budget, notes } = lp.summary;
  return { leaf, system, tools, messages, plan: allPlanRows(lp.planRows), tokens, over_budget, notes };
}

/** The last k in 0…n-1 with starts[k] ≤ x (-1 when none). */
function segmentAt(starts: Int32Array, n: number, x: number): number {
  let lo = 0;
  let hi = n - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= x) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Position of `x` in ascending `a`, or -1. */
function binarySearch(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] === x) return mid;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
