import type {
  Fidelity,
  Json,
  PlanRow,
  ProjectedMessage,
  Projection,
  ProjectionTokens,
} from '../../shared/ledger-types';
import { isObject } from './entry-types';
import { chainToRoot } from './chain';
import { packetSummary, scanChain, type ChainContext, type PacketRef } from './chain-context';
import { fullMessage, verbatimMessage, type ShapedMessage } from './full-fidelity';
import { F_MESSAGE } from './ledger-index';
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

/** `project`, keeping the chain, its context and its TurnIndex for the caller. */
export function projectLeaf(ledger: Ledger, leaf: number, opts: ProjectOptions): LeafProjection {
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const bpt = profile.bytes_per_token;
  const index = ledger.index;
  const chain = chainToRoot(index, leaf);
  const ctx = scanChain(ledger, chain);
  const { system, tools } = headerContext(ledger);

  const after = ctx.resetPos >= 0 ? chain.slice(ctx.resetPos + 1) : chain;
  const base = ctx.resetPos + 1; // chain position of after[0]
  const posOf = new Map<number, number>();
  after.forEach((i, k) => posOf.set(i, base + k));
  const turnIndex = buildTurnIndex(index, after);

  const make = (
    shaped: ShapedMessage,
    fidelity: Fidelity,
    turnId: string | null,
    sources: string[],
  ): ProjectedMessage => ({
    role: shaped.role,
    content: shaped.content,
    fidelity,
    turn_id: turnId,
    source_ids: sources,
    tokens: messageTokens(shaped.content, bpt),
  });
  const userText = (text: string): ShapedMessage => ({ role: 'user', content: [{ type: 'text', text }] });
  const verbatim = (entries: number[], fidelity: Fidelity, turnId: string | null): ProjectedMessage[] =>
    entries
      .filter((i) => index.flags[i] & F_MESSAGE)
      .map((i) => make(verbatimMessage(ledger, i)!, fidelity, turnId, [index.ids[i]]));

  const head: ProjectedMessage[] = [];
  if (ctx.resetPos >= 0) {
    head.push(make(userText('[summary] ' + ctx.resetSummary), 'reset', null, [index.ids[chain[ctx.resetPos]]]));
  }
  head.push(...verbatim(turnIndex.preamble, 'preamble', null));

  const closed = turnIndex.turns.filter((t) => !t.open);
  const openTurn: Turn | undefined = turnIndex.turns.find((t) => t.open);
  const tailMsgs: ProjectedMessage[] = [];
  if (openTurn) tailMsgs.push(...verbatim(openTurn.entries, 'open', openTurn.id));
  tailMsgs.push(tailMessage(ledger, ctx, leaf, make, userText));

  const fixedCost = [...head, ...tailMsgs].reduce((n, m) => n + m.tokens, 0);
  const systemTokens = tokensOf(system, bpt);
  const toolsTokens = tokensOf(JSON.stringify(tools), bpt);
  const available = profile.window - profile.reserve - systemTokens - toolsTokens - fixedCost;

  // Every closed turn at Full, and what it could be instead.
  const fullMsgs = closed.map((t) =>
    t.entries.flatMap((i) => {
      const shaped = fullMessage(ledger, ctx, posOf.get(i)!);
      return shaped ? [make(shaped, 'full', t.id, [index.ids[i]])] : [];
    }),
  );
  const cardMsgs = closed.map((t) => {
    const c = ctx.cards.get(t.id);
    if (c === undefined) return null;
    const card = ledger.entry(c)['turn_card'];
    const line = isObject(card) && typeof card['line'] === 'string' ? card['line'] : '';
    return make(userText('[turn card] ' + line), 'card', t.id, [index.ids[c]]);
  });
  const planTurns: PlanTurn[] = closed.map((t, k) => ({
    id: t.id,
    fullTokens: fullMsgs[k].reduce((n, m) => n + m.tokens, 0),
    cardTokens: cardMsgs[k]?.tokens ?? null,
  }));
  const packetMsgs = new Map<PlanPacket, ProjectedMessage>();
  const planPackets = usablePackets(ctx, closed).map(({ ref, first, last }) => {
    const n = last - first + 1;
    const text = `[summary of ${n} turns] ${packetSummary(ledger, ref)}`;
    const msg = make(userText(text), 'packet', closed[first].id, [ref.id]);
    const p: PlanPacket = { id: ref.id, first, last, tokens: msg.tokens };
    packetMsgs.set(p, msg);
    return p;
  });

  const result = choosePlan(planTurns, planPackets, available, opts.plan === 'auto', opts.overrides);

  const body: ProjectedMessage[] = [];
  const plan: PlanRow[] = [];
  result.choices.forEach((c, k) => {
    const t = closed[k];
    if (c.fidelity === 'packet') {
      const msg = packetMsgs.get(c.packet!)!;
      if (c.packet!.first === k) body.push(msg);
      plan.push({ turn_id: t.id, fidelity: 'packet', packet_id: c.packet!.id, tokens: msg.tokens });
    } else if (c.fidelity === 'card') {
      body.push(cardMsgs[k]!);
      plan.push({ turn_id: t.id, fidelity: 'card', packet_id: null, tokens: cardMsgs[k]!.tokens });
    } else {
      body.push(...fullMsgs[k]);
      plan.push({ turn_id: t.id, fidelity: 'full', packet_id: null, tokens: planTurns[k].fullTokens });
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
  return {
    system: typeof h['system_prompt'] === 'string' ? h['system_prompt'] : '',
    tools: Array.isArray(h['tools']) ? (h['tools'] as Json[]) : [],
  };
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

function tailMessage(
  ledger: Ledger,
  ctx: ChainContext,
  leaf: number,
  make: (s: ShapedMessage, f: Fidelity, t: string | null, src: string[]) => ProjectedMessage,
  userText: (text: string) => ShapedMessage,
): ProjectedMessage {
  const ids = ledger.index.ids;
  const ts = ledger.entry(leaf)['ts'];
  let text = '[tail]\ntime: ' + (typeof ts === 'string' ? ts : '');
  const sources = [ids[leaf]];
  if (ctx.intent >= 0) {
    if (ctx.intentText !== null) text += '\n' + ctx.intentText;
    if (ctx.intent !== leaf) sources.push(ids[ctx.intent]);
  }
  return make(userText(text), 'tail', null, sources);
}
