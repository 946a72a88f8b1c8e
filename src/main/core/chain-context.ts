import { isObject, type Entry, type Json } from './entry-types';
import { F_ASSISTANT, KIND, type LedgerIndex } from './ledger-index';
import type { Ledger } from './ledger';

/** A usable-or-not packet as found in the chain (§3 compaction with `packet`). */
export interface PacketRef {
  entry: number;
  id: string;
  summary: string;
  firstTurnId: string;
  lastTurnId: string;
}

/**
 * What a projection needs to know about a chain beyond its messages: the newest
 * reset, the newest intent, card acks, turn cards and packets. Only entries of
 * those kinds are parsed; the rest stay on disk.
 */
export interface ChainContext {
  chain: number[];
  /** Position in `chain` of the newest reset_all compaction, or -1. */
  resetPos: number;
  resetSummary: string;
  /** Newest intent entry in the chain, or -1. */
  intent: number;
  intentText: string | null;
  /** presentation.tool_use_id → ack, newest in the chain winning (§8). */
  acks: Map<string, Json>;
  /** turn_card.turn_id → the turn_card entry index, newest winning. */
  cards: Map<string, number>;
  /** Packets in chain order. */
  packets: PacketRef[];
}

export function scanChain(ledger: Ledger, chain: number[]): ChainContext {
  const index = ledger.index;
  const ctx: ChainContext = {
    chain,
    resetPos: -1,
    resetSummary: '',
    intent: -1,
    intentText: null,
    acks: new Map(),
    cards: new Map(),
    packets: [],
  };
  for (let pos = 0; pos < chain.length; pos++) {
    const i = chain[pos];
    const k = index.kind[i];
    if (k === KIND.compaction) {
      const e = ledger.entry(i);
      if (e['reset_all'] === true) {
        ctx.resetPos = pos;
        ctx.resetSummary = stringOr(e['summary'], '');
      }
      const p = e['packet'];
      if (isObject(p) && typeof p['first_turn_id'] === 'string' && typeof p['last_turn_id'] === 'string') {
        ctx.packets.push({
          entry: i,
          id: index.ids[i],
          summary: stringOr(p['summary'], ''),
          firstTurnId: p['first_turn_id'],
          lastTurnId: p['last_turn_id'],
        });
      }
    } else if (k === KIND.intent) {
      const intent = ledger.entry(i)['intent'];
      ctx.intent = i;
      ctx.intentText = isObject(intent) ? textOf(intent['model_visible']) : null;
    } else if (k === KIND.presentation) {
      const p = ledger.entry(i)['presentation'];
      if (isObject(p) && typeof p['tool_use_id'] === 'string')
        ctx.acks.set(p['tool_use_id'], (p['ack'] ?? null) as Json);
    } else if (k === KIND.turn_card) {
      const c = ledger.entry(i)['turn_card'];
      if (isObject(c) && typeof c['turn_id'] === 'string') ctx.cards.set(c['turn_id'], i);
    }
  }
  return ctx;
}

/**
 * Resolves a tool_result's tool name: the nearest assistant tool_use with that id
 * at or before chain position `pos` (§5: `unknown` when none).
 */
export function toolNameFor(ledger: Ledger, ctx: ChainContext, pos: number, toolUseId: string): string {
  const index: LedgerIndex = ledger.index;
  for (let p = pos; p >= 0; p--) {
    const i = ctx.chain[p];
    if ((index.flags[i] & F_ASSISTANT) === 0) continue;
    const content = messageContent(ledger.entry(i));
    for (const b of content) {
      if (isObject(b) && b['type'] === 'tool_use' && b['id'] === toolUseId && typeof b['name'] === 'string') {
        return b['name'];
      }
    }
  }
  return 'unknown';
}

export function messageContent(e: Entry): Json[] {
  const m = e['message'];
  return isObject(m) && Array.isArray(m['content']) ? (m['content'] as Json[]) : [];
}

function stringOr(v: unknown, d: string): string {
  return typeof v === 'string' ? v : d;
}

function textOf(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}
