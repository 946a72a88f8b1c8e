/**
 * §5/§6 for one leaf, incrementally: the plan is decided on numbers (each closed turn's Full
 * cost from the TurnCache, card and packet costs), and message bodies are shaped only for
 * the range asked (`messages(start, end)`). Neighbouring leaves share every closed turn, so
 * a new leaf shapes only its open turn, its tail and the turns it does not share.
 */
import type { PlanRow, ProjectedMessage, Projection } from '../../shared/ledger-types';
import { stringifyJson } from '../../shared/json-text';
import { checkCancelled, type CancelSignal } from './cancel';
import { chainToRoot } from './chain';
import { scanChain, type ChainContext, type PacketRef } from './chain-context';
import type { Ledger } from './ledger';
import {
  cardMessage,
  fullTurn,
  headerContext,
  packetMessage,
  projected,
  tailMessage,
  usablePackets,
  userText,
  verbatimMessages,
} from './message-shapes';
import { choosePlan, type PlanPacket, type PlanTurn, type TurnOverride } from './plan';
import { DEFAULT_PROFILE, tokensOf, type CapacityProfile } from './tokens';
import { turnCacheOf, type FullTurnFacts } from './turn-cache';
import { buildTurnIndex, type Turn, type TurnIndex } from './turn-index';

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
  /** The projection with `messages` empty: see `messageCount` and `messages()`. */
  summary: Projection;
  messageCount: number;
  /** chain_to_root(leaf), root first. */
  chain: number[];
  ctx: ChainContext;
  /** Chain position of the first entry after the newest reset (0 without one). */
  base: number;
  turnIndex: TurnIndex;
  /**
   * Messages `start … end-1`, shaped now (Full turns read back from the ledger). `signal` is the
   * asking request's: a plan is cached and serves later requests, so it never keeps the signal of
   * the request that built it (a cancelled first asker must not cancel the next one).
   */
  messages(start: number, end: number, signal?: CancelSignal): ProjectedMessage[];
  /** Indices of the messages whose `source_ids` name the entry at chain position `pos`, ascending. */
  projectedAs(pos: number): number[];
}

/** How often (in turns) long loops look at the abort signal. */
const CHECK_EVERY = 64;

/** The plan of `leaf`'s projection; bodies are shaped only when `messages()` asks. */
export function planLeaf(ledger: Ledger, leaf: number, opts: PlanOptions): LeafPlan {
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const bpt = profile.bytes_per_token;
  const index = ledger.index;
  const cache = turnCacheOf(ledger);
  const chain = chainToRoot(index, leaf);
  const ctx = scanChain(ledger, chain);
  const { system, tools } = headerContext(ledger);

  const base = ctx.resetPos + 1;
  const after = ctx.resetPos >= 0 ? chain.slice(base) : chain;
  const turnIndex = buildTurnIndex(index, after);

  const head: ProjectedMessage[] = [];
  if (ctx.resetPos >= 0) {
    head.push(
      projected(userText('[summary] ' + ctx.resetSummary), 'reset', null, [index.ids[chain[ctx.resetPos]]], bpt),
    );
  }
  head.push(...verbatimMessages(ledger, turnIndex.preamble, 'preamble', null, bpt));

  const closed: { turn: Turn; firstPos: number }[] = [];
  let openTurn: Turn | undefined;
  let pos = base + turnIndex.preamble.length;
  for (const t of turnIndex.turns) {
    if (t.open) openTurn = t;
    else closed.push({ turn: t, firstPos: pos });
    pos += t.entries.length;
  }
  const tail: ProjectedMessage[] = [];
  if (openTurn) tail.push(...verbatimMessages(ledger, openTurn.entries, 'open', openTurn.id, bpt));
  tail.push(tailMessage(ledger, ctx, leaf, bpt));

  const fixedCost = [...head, ...tail].reduce((n, m) => n + m.tokens, 0);
  const systemTokens = tokensOf(system, bpt);
  const toolsTokens = cache.memo(`tools:${index.header}:${bpt}`, () => tokensOf(stringifyJson(tools), bpt));
  const available = profile.window - profile.reserve - systemTokens - toolsTokens - fixedCost;

  const facts: FullTurnFacts[] = [];
  const planTurns: PlanTurn<number>[] = closed.map(({ turn, firstPos }, k) => {
    if (k % CHECK_EVERY === 0) checkCancelled(opts.signal);
    const f = cache.fullFacts(ledger, ctx, turn, firstPos, bpt);
    facts.push(f);
    const c = ctx.cards.get(turn.id);
    const card =
      c === undefined
        ? null
        : { tokens: cache.memo(`card:${c}:${bpt}`, () => cardMessage(ledger, c, turn.id, bpt).tokens), value: c };
    return { id: turn.id, fullTokens: f.tokens, card };
  });
  const closedTurns = closed.map((c) => c.turn);
  const planPackets: PlanPacket<PacketRef>[] = usablePackets(ctx, closedTurns).map(({ ref, first, last }) => {
    const n = last - first + 1;
    const tokens = cache.memo(`packet:${ref.entry}:${n}:${bpt}`, () => {
      return packetMessage(ledger, ref, n, closedTurns[first].id, bpt).tokens;
    });
    return { id: ref.id, first, last, tokens, value: ref };
  });

  const result = choosePlan(planTurns, planPackets, available, opts.plan === 'auto', opts.overrides);

  const segments: Segment[] = [];
  const plan: PlanRow[] = [];
  /** Message index where each segment starts, and one past the last segment. */
  const segStart = new Int32Array(closed.length + 1);
  let at = head.length;
  let bodyTokens = 0;
  result.choices.forEach((c, k) => {
    segStart[k] = at;
    const turn = closedTurns[k];
    if (c.fidelity === 'packet') {
      const firstOfRange = c.packet.first === k;
      segments.push(
        firstOfRange
          ? { kind: 'packet', turn, ref: c.packet.value, turns: c.packet.last - c.packet.first + 1 }
          : { kind: 'behind', turn },
      );
      if (firstOfRange) {
        at += 1;
        bodyTokens += c.packet.tokens;
      }
      plan.push({ turn_id: turn.id, fidelity: 'packet', packet_id: c.packet.id, tokens: c.packet.tokens });
    } else if (c.fidelity === 'card') {
      segments.push({ kind: 'card', turn, card: c.card.value });
      at += 1;
      bodyTokens += c.card.tokens;
      plan.push({ turn_id: turn.id, fidelity: 'card', packet_id: null, tokens: c.card.tokens });
    } else {
      segments.push({ kind: 'full', turn, firstPos: closed[k].firstPos, facts: facts[k] });
      at += facts[k].sources.length;
      bodyTokens += facts[k].tokens;
      plan.push({ turn_id: turn.id, fidelity: 'full', packet_id: null, tokens: planTurns[k].fullTokens });
    }
  });
  segStart[closed.length] = at;
  const tailStart = at;
  const messageCount = at + tail.length;
  const messageTotal = fixedCost + bodyTokens;

  const segmentMessages = (k: number): ProjectedMessage[] => {
    const s = segments[k];
    switch (s.kind) {
      case 'full':
        return fullTurn(ledger, ctx, s.turn, s.firstPos, bpt);
      case 'card':
        return [cardMessage(ledger, s.card, s.turn.id, bpt)];
      case 'packet':
        return [packetMessage(ledger, s.ref, s.turns, s.turn.id, bpt)];
      case 'behind':
        return [];
    }
  };

  const messages = (start: number, end: number, signal?: CancelSignal): ProjectedMessage[] => {
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
        const msgs = segmentMessages(k);
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
  segments.forEach((s, k) => {
    if (s.kind === 'card') name(index.ids[s.card], segStart[k]);
    else if (s.kind === 'packet') name(s.ref.id, segStart[k]);
  });
  tail.forEach((m, k) => m.source_ids.forEach((id) => name(id, tailStart + k)));
  const closedPos = Int32Array.from(closed, (c) => c.firstPos);

  const projectedAs = (p: number): number[] => {
    const i = chain[p];
    const extra = named.get(index.ids[i]) ?? [];
    const k = segmentAt(closedPos, closed.length, p);
    const s = k >= 0 ? segments[k] : undefined;
    if (!s || s.kind !== 'full' || p >= s.firstPos + s.turn.entries.length) return extra;
    const rank = binarySearch(s.facts.sources, i);
    if (rank < 0) return extra;
    const m = segStart[k] + rank;
    return extra.length === 0 ? [m] : [...extra, m].sort((a, b) => a - b);
  };

  const summary: Projection = {
    leaf: index.ids[leaf],
    system,
    tools,
    messages: [],
    plan,
    tokens: {
      system: systemTokens,
      tools: toolsTokens,
      messages: messageTotal,
      total: systemTokens + toolsTokens + messageTotal,
      available,
    },
    over_budget: Math.max(0, result.need - available),
    notes: result.notes,
  };
  return { summary, messageCount, chain, ctx, base, turnIndex, messages, projectedAs };
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
