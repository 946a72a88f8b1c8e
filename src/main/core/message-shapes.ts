/**
 * The projected messages of §5/§6, one shape at a time: verbatim messages (preamble, open
 * turn), a closed turn at Full, a turn card, a packet, the tail. Kept apart from the plan
 * (leaf-plan.ts) so a page of messages can be shaped without deciding the plan again.
 */
import type { Fidelity, Json, ProjectedMessage } from '../../shared/ledger-types';
import type { ChainContext, PacketRef } from './chain-context';
import { packetSummary } from './chain-context';
import { fullMessage, verbatimMessage, type EntryRead, type ShapedMessage } from './full-fidelity';
import type { Ledger } from './ledger';
import { messageTokens } from './tokens';
import type { Turn } from './turn-index';

/** Shapes a message into a projected one, costed at `bpt` bytes per token. */
export function projected(
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

export const userText = (text: string): ShapedMessage => ({ role: 'user', content: [{ type: 'text', text }] });

/** The cost of a text the projection writes itself (summaries, cards, the tail) as one message. */
export const userTextTokens = (text: string, bpt: number): number => messageTokens(userText(text).content, bpt);

/** The texts §5/§6 write themselves: one wording each, for shaped messages and for costs alike. */
export const resetText = (summary: string): string => '[summary] ' + summary;
export const cardText = (line: string): string => '[turn card] ' + line;
export const packetText = (turns: number, summary: string): string => `[summary of ${turns} turns] ${summary}`;
export const tailText = (ts: string, intentText: string | null): string =>
  '[tail]\ntime: ' + ts + (intentText !== null ? '\n' + intentText : '');

/** Message entries as recorded (preamble, open turn), each traced to its entry. */
export function verbatimMessages(
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

/**
 * One closed turn at Full fidelity (§5.3); `firstPos` is the chain position of its directive.
 * `scan`: its costs are wanted, not its bodies on screen (entries not kept in the entry cache).
 * `read`: told of each entry as read (EntryRead).
 */
export function fullTurn(
  ledger: Ledger,
  ctx: ChainContext,
  turn: Turn,
  firstPos: number,
  bpt: number,
  scan = false,
  read?: EntryRead,
): ProjectedMessage[] {
  const out: ProjectedMessage[] = [];
  const shaping = { scan, names: new Map<string, string>(), read };
  turn.entries.forEach((i, k) => {
    const shaped = fullMessage(ledger, ctx, firstPos + k, shaping);
    if (shaped) out.push(projected(shaped, 'full', turn.id, [ledger.index.ids[i]], bpt));
  });
  return out;
}

/** A turn card entry as the message that stands for its turn. */
export function cardMessage(ledger: Ledger, card: number, turnId: string, bpt: number): ProjectedMessage {
  const e = ledger.entry(card);
  const line = e.kind === 'turn_card' ? e.turn_card.line : '';
  return projected(userText(cardText(line)), 'card', turnId, [ledger.index.ids[card]], bpt);
}

/** One closed turn as its Card (§6), or null when the chain holds no turn card for it. */
export function cardTurn(ledger: Ledger, ctx: ChainContext, turn: Turn, bpt: number): ProjectedMessage | null {
  const c = ctx.cards.get(turn.id);
  return c === undefined ? null : cardMessage(ledger, c, turn.id, bpt);
}

/** A usable packet as the message that replaces its `turns` turns; `firstTurnId` is the first of them. */
export function packetMessage(
  ledger: Ledger,
  ref: PacketRef,
  turns: number,
  firstTurnId: string,
  bpt: number,
): ProjectedMessage {
  return projected(userText(packetText(turns, packetSummary(ledger, ref))), 'packet', firstTurnId, [ref.id], bpt);
}

/** §5: system prompt and tools from the header on line 1; "" and [] without one. */
export function headerContext(ledger: Ledger): { system: string; tools: Json[] } {
  if (ledger.index.header < 0) return { system: '', tools: [] };
  const h = ledger.entry(ledger.index.header);
  return h.kind === 'header' ? { system: h.system, tools: h.tools } : { system: '', tools: [] };
}

/** A usable packet and its range in the closed turns. */
export interface UsablePacket {
  ref: PacketRef;
  first: number;
  last: number;
}

/** §6: a packet is usable only when both its ids are closed turns of this chain, in order. */
export function usablePackets(ctx: ChainContext, closed: readonly Turn[]): UsablePacket[] {
  // Most chains hold no packet: no map over their (thousands of) closed turns then.
  if (ctx.packets.length === 0) return [];
  const pos = new Map(closed.map((t, k) => [t.id, k]));
  return ctx.packets.flatMap((ref) => {
    const first = pos.get(ref.firstTurnId);
    const last = pos.get(ref.lastTurnId);
    return first !== undefined && last !== undefined && first <= last ? [{ ref, first, last }] : [];
  });
}

/** §5.5 the tail: the leaf's time, then the newest intent's model_visible text. */
export function tailMessage(ledger: Ledger, ctx: ChainContext, leaf: number, bpt: number): ProjectedMessage {
  const ids = ledger.index.ids;
  const sources = [ids[leaf]];
  if (ctx.intent >= 0 && ctx.intent !== leaf) sources.push(ids[ctx.intent]);
  const text = tailText(ledger.entry(leaf).ts, ctx.intent >= 0 ? ctx.intentText : null);
  return projected(userText(text), 'tail', null, sources, bpt);
}
