import type {
  Fidelity,
  Json,
  PlanRow,
  ProjectedMessage,
  Projection,
  ProjectionTokens,
} from '../../shared/ledger-types';
import { stringifyJson } from '../../shared/json-text';
import { chainToRoot } from './chain';
import { packetSummary, scanChain, type ChainContext, type PacketRef } from './chain-context';
import { fullMessage, verbatimMessage, type ShapedMessage } from './full-fidelity';
import type { Ledger } from './ledger';
import { choosePlan, type PlanPacket, type PlanTurn, type TurnOverride } from './plan';
import { DEFAULT_PROFILE, messageTokens, tokensOf, type CapacityProfile } from './tokens';
import { buildTurnIndex, type Turn, type TurnIndex } from './turn-index';

export type { Fidelity, PlanRow, ProjectedMessage, Projection, ProjectionTokens };

export interface ProjectOptions {
  /** 'none' is derive_messages; 'auto' is derive_with_plan. */
  plan: 'none' | 'auto';
  profile?: CapacityProfile;
  overrides?: ReadonlyMap<string, TurnOverride>;
}

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
  chain: number[];
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

/** Shapes a message into a projected one, costed at `bpt` bytes per token. */
function projected(
  shaped: ShapedMessage,
  fidelity: Fidelity,
  turnId: string | null,
  sources: string[],
  bpt: number,
): ProjectedMessage {
  return {
    role: shaped.role,
    content: shaped.content,
    fidelity,
    turn_id: turnId,
    source_ids: sources,
    tokens: messageTokens(shaped.content, bpt),
  };
}

const userText = (text: string): ShapedMessage => ({ role: 'user', content: [{ type: 'text', text }] });

/** Message entries as recorded (preamble, open turn), each traced to its entry. */
function verbatimMessages(
  ledger: Ledger,
  entries: readonly number[],
  fidelity: Fidelity,
  turnId: string | null,
  bpt: number,
): ProjectedMessage[] {
  return entries.flatMap((i) => {
    const shaped = verbatimMessage(ledger.entry(i));
    return shaped ? [projected(shaped, fidelity, turnId, [ledger.index.ids[i]], bpt)] : [];
  });
}

/** One closed turn at Full fidelity (§5.3); `firstPos` is the chain position of its directive. */
export function fullTurn(
  ledger: Ledger,
  ctx: ChainContext,
  turn: Turn,
  firstPos: number,
  bpt: number,
): ProjectedMessage[] {
  const out: ProjectedMessage[] = [];
  turn.entries.forEach((i, k) => {
    const shaped = fullMessage(ledger, ctx, firstPos + k);
    if (shaped) out.push(projected(shaped, 'full', turn.id, [ledger.index.ids[i]], bpt));
  });
  return out;
}

/** One closed turn as its Card (§6), or null when the chain holds no turn card for it. */
export function cardTurn(ledger: Ledger, ctx: ChainContext, turn: Turn, bpt: number): ProjectedMessage | null {
  const c = ctx.cards.get(turn.id);
  if (c === undefined) return null;
  const card = ledger.entry(c);
  const line = card.kind === 'turn_card' ? card.turn_card.line : '';
  return projected(userText('[turn card] ' + line), 'card', turn.id, [ledger.index.ids[c]], bpt);
}

/** `project`, keeping the chain, its context and its TurnIndex for the caller. */
export function projectLeaf(ledger: Ledger, leaf: number, opts: ProjectOptions): LeafProjection {
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const bpt = profile.bytes_per_token;
  const index = ledger.index;
  const chain = chainToRoot(index, leaf);
  const ctx = scanChain(ledger, chain);
  const { system, tools } = headerContext(ledger);

  const base = ctx.resetPos + 1; // chain position of the first entry after the newest reset
  const after = ctx.resetPos >= 0 ? chain.slice(base) : chain;
  const turnIndex = buildTurnIndex(index, after);

  const head: ProjectedMessage[] = [];
  if (ctx.resetPos >= 0) {
    head.push(
      projected(userText('[summary] ' + ctx.resetSummary), 'reset', null, [index.ids[chain[ctx.resetPos]]], bpt),
    );
  }
  head.push(...verbatimMessages(ledger, turnIndex.preamble, 'preamble', null, bpt));

  // Chain position of each turn's directive: the preamble first, then the turns in order.
  const closed: { turn: Turn; firstPos: number }[] = [];
  let openTurn: Turn | undefined;
  let pos = base + turnIndex.preamble.length;
  for (const t of turnIndex.turns) {
    if (t.open) openTurn = t;
    else closed.push({ turn: t, firstPos: pos });
    pos += t.entries.length;
  }
  const tailMsgs: ProjectedMessage[] = [];
  if (openTurn) tailMsgs.push(...verbatimMessages(ledger, openTurn.entries, 'open', openTurn.id, bpt));
  tailMsgs.push(tailMessage(ledger, ctx, leaf, bpt));

  const fixedCost = [...head, ...tailMsgs].reduce((n, m) => n + m.tokens, 0);
  const systemTokens = tokensOf(system, bpt);
  const toolsTokens = tokensOf(stringifyJson(tools), bpt);
  const available = profile.window - profile.reserve - systemTokens - toolsTokens - fixedCost;

  // Every closed turn at Full, and what it could be instead.
  const fullMsgs = closed.map(({ turn, firstPos }) => fullTurn(ledger, ctx, turn, firstPos, bpt));
  const planTurns: PlanTurn<ProjectedMessage>[] = closed.map(({ turn }, k) => {
    const card = cardTurn(ledger, ctx, turn, bpt);
    return {
      id: turn.id,
      fullTokens: fullMsgs[k].reduce((n, m) => n + m.tokens, 0),
      card: card ? { tokens: card.tokens, value: card } : null,
    };
  });
  const closedTurns = closed.map((c) => c.turn);
  const planPackets: PlanPacket<ProjectedMessage>[] = usablePackets(ctx, closedTurns).map(({ ref, first, last }) => {
    const text = `[summary of ${last - first + 1} turns] ${packetSummary(ledger, ref)}`;
    const msg = projected(userText(text), 'packet', closedTurns[first].id, [ref.id], bpt);
    return { id: ref.id, first, last, tokens: msg.tokens, value: msg };
  });

  const result = choosePlan(planTurns, planPackets, available, opts.plan === 'auto', opts.overrides);

  const body: ProjectedMessage[] = [];
  const plan: PlanRow[] = [];
  result.choices.forEach((c, k) => {
    const turnId = closedTurns[k].id;
    if (c.fidelity === 'packet') {
      if (c.packet.first === k) body.push(c.packet.value);
      plan.push({ turn_id: turnId, fidelity: 'packet', packet_id: c.packet.id, tokens: c.packet.tokens });
    } else if (c.fidelity === 'card') {
      body.push(c.card.value);
      plan.push({ turn_id: turnId, fidelity: 'card', packet_id: null, tokens: c.card.tokens });
    } else {
      body.push(...fullMsgs[k]);
      plan.push({ turn_id: turnId, fidelity: 'full', packet_id: null, tokens: planTurns[k].fullTokens });
    }
  });

  const messages = [...head, ...body, ...tailMsgs];
  const messageTotal = messages.reduce((n, m) => n + m.tokens, 0);
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

/** §5: system prompt and tools from the header on line 1; "" and [] without one. */
export function headerContext(ledger: Ledger): { system: string; tools: Json[] } {
  if (ledger.index.header < 0) return { system: '', tools: [] };
  const h = ledger.entry(ledger.index.header);
  return h.kind === 'header' ? { system: h.system, tools: h.tools } : { system: '', tools: [] };
}

/** §6: a packet is usable only when both its ids are closed turns of this chain, in order. */
export function usablePackets(
  ctx: ChainContext,
  closed: readonly Turn[],
): { ref: PacketRef; first: number; last: number }[] {
  const pos = new Map(closed.map((t, k) => [t.id, k]));
  return ctx.packets.flatMap((ref) => {
    const first = pos.get(ref.firstTurnId);
    const last = pos.get(ref.lastTurnId);
    return first !== undefined && last !== undefined && first <= last ? [{ ref, first, last }] : [];
  });
}

/** §5.5 the tail: the leaf's time, then the newest intent's model_visible text. */
function tailMessage(ledger: Ledger, ctx: ChainContext, leaf: number, bpt: number): ProjectedMessage {
  const ids = ledger.index.ids;
  let text = '[tail]\ntime: ' + ledger.entry(leaf).ts;
  const sources = [ids[leaf]];
  if (ctx.intent >= 0) {
    if (ctx.intentText !== null) text += '\n' + ctx.intentText;
    if (ctx.intent !== leaf) sources.push(ids[ctx.intent]);
  }
  return projected(userText(text), 'tail', null, sources, bpt);
}
