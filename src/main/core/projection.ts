import type { Fidelity, PlanRow, ProjectedMessage, Projection, ProjectionTokens } from '../../shared/ledger-types';
import { stringifyJson } from '../../shared/json-text';
import { checkCancelled } from './cancel';
import { chainToRoot } from './chain';
import { scanChain, type ChainContext } from './chain-context';
import type { Ledger } from './ledger';
import { planLeaf, projectionOf, type LeafPlan, type PlanOptions } from './leaf-plan';
import {
  cardTurn,
  fullTurn,
  headerContext,
  packetMessage,
  projected,
  resetText,
  tailMessage,
  usablePackets,
  userText,
  verbatimMessages,
} from './message-shapes';
import { referencePlan, type RefPacket, type RefTurn } from './reference-plan';
import { DEFAULT_PROFILE, tokensOf } from './tokens';
import { buildTurnIndex, type Turn, type TurnIndex } from './turn-index';

export type { Fidelity, PlanRow, ProjectedMessage, Projection, ProjectionTokens };
export { cardTurn, fullTurn, headerContext, usablePackets } from './message-shapes';
export { planLeaf, projectionOf, type LeafPlan };

export type ProjectOptions = PlanOptions;

/** §5 derive_messages(leaf). */
export function deriveMessages(ledger: Ledger, leaf: number, profile = DEFAULT_PROFILE): Projection {
  return project(ledger, leaf, { plan: 'none', profile });
}

/** §6 derive_with_plan(leaf, profile). */
export function deriveWithPlan(ledger: Ledger, leaf: number, profile = DEFAULT_PROFILE): Projection {
  return project(ledger, leaf, { plan: 'auto', profile });
}

/** A projection with the chain context it was derived from (what a leaf view also needs). */
export interface LeafProjection {
  projection: Projection;
  /** chain_to_root(leaf), root first. */
  chain: Int32Array;
  ctx: ChainContext;
  /** Chain position of the first entry after the newest reset (0 without one). */
  base: number;
  /** TurnIndex of the entries after the newest reset. */
  turnIndex: TurnIndex;
}

/** The projected context of `leaf` under a plan, a profile and per-turn overrides. */
export function project(ledger: Ledger, leaf: number, opts: ProjectOptions): Projection {
  return projectLeaf(ledger, leaf, opts).projection;
}

/**
 * `project`, keeping the chain, its context and its TurnIndex for the caller. The simple reference
 * of §5/§6: every closed turn shaped at Full, its Card and the usable packets shaped too, the plan
 * chosen by `referencePlan` (one object per turn), the messages put together. Leaf views, pages,
 * the CLI and exports use the plan engine instead (`planLeaf`); plan-engine.test.ts holds the
 * engine to this.
 */
export function projectLeaf(ledger: Ledger, leaf: number, opts: ProjectOptions): LeafProjection {
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const bpt = profile.bytes_per_token;
  const index = ledger.index;
  const chain = chainToRoot(index, leaf);
  const ctx = scanChain(ledger, chain);
  const { system, tools } = headerContext(ledger);
  const base = ctx.resetPos + 1;
  const turnIndex = buildTurnIndex(index, ctx.resetPos >= 0 ? chain.subarray(base) : chain);

  const head: ProjectedMessage[] = [];
  if (ctx.resetPos >= 0) {
    head.push(projected(userText(resetText(ctx.resetSummary)), 'reset', null, [index.ids[chain[ctx.resetPos]]], bpt));
  }
  head.push(...verbatimMessages(ledger, turnIndex.preamble, 'preamble', null, bpt));

  // Chain position of each closed turn's directive: the preamble first, then the turns in order.
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

  const sum = (ms: readonly ProjectedMessage[]): number => ms.reduce((n, m) => n + m.tokens, 0);
  const systemTokens = tokensOf(system, bpt);
  const toolsTokens = tokensOf(stringifyJson(tools), bpt);
  const available = profile.window - profile.reserve - systemTokens - toolsTokens - sum(head) - sum(tail);

  // Every closed turn at Full, and what it could be instead.
  const fullMsgs = closed.map(({ turn, firstPos }) => {
    checkCancelled(opts.signal);
    return fullTurn(ledger, ctx, turn, firstPos, bpt);
  });
  const cards = closed.map(({ turn }) => cardTurn(ledger, ctx, turn, bpt));
  const turns: RefTurn[] = closed.map(({ turn }, k) => ({
    id: turn.id,
    full: sum(fullMsgs[k]),
    card: cards[k]?.tokens ?? null,
  }));
  const closedTurns = closed.map((c) => c.turn);
  const usable = usablePackets(ctx, closedTurns);
  const packetMsgs = usable.map(({ ref, first, last }) =>
    packetMessage(ledger, ref, last - first + 1, closedTurns[first].id, bpt),
  );
  const packets: RefPacket[] = usable.map(({ ref, first, last }, j) => ({
    id: ref.id,
    first,
    last,
    tokens: packetMsgs[j].tokens,
  }));

  const result = referencePlan(turns, packets, available, opts.plan === 'auto', opts.overrides);

  const body: ProjectedMessage[] = [];
  const plan: PlanRow[] = [];
  result.choices.forEach((c, k) => {
    const turnId = turns[k].id;
    const card = cards[k];
    if (c === 'card' && card) {
      body.push(card);
      plan.push({ turn_id: turnId, fidelity: 'card', packet_id: null, tokens: card.tokens });
    } else if (typeof c === 'object') {
      const p = packets[c.packet];
      if (p.first === k) body.push(packetMsgs[c.packet]);
      plan.push({ turn_id: turnId, fidelity: 'packet', packet_id: p.id, tokens: p.tokens });
    } else {
      body.push(...fullMsgs[k]);
      plan.push({ turn_id: turnId, fidelity: 'full', packet_id: null, tokens: turns[k].full });
    }
  });

  const messages = [...head, ...body, ...tail];
  const messageTotal = sum(messages);
  const projection: Projection = {
    leaf: index.ids[leaf],
    system,
    tools,
    messages,
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
  return { projection, chain, ctx, base, turnIndex };
}
