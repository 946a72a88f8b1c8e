import { isObject, type Json, type LedgerEntry } from './entry-types';
import { F_ASSISTANT, F_RESET, KIND, type LedgerIndex } from './ledger-index';
import type { EntryReader } from './entry-reader';

/** A packet found in the chain (§3 compaction with `packet`); its summary is read when used. */
export interface PacketRef {
  entry: number;
  id: string;
  firstTurnId: string;
  lastTurnId: string;
}

/**
 * What a projection needs to know about a chain beyond its messages: the newest
 * reset, the newest intent, card calls, turn cards and packets. Found through
 * the index's kind codes and routing keys; payloads are parsed only when used.
 */
export interface ChainContext {
  chain: Int32Array;
  /** Position in `chain` of the newest reset_all compaction, or -1. */
  resetPos: number;
  resetSummary: string;
  /** Newest intent entry in the chain, or -1. */
  intent: number;
  intentText: string | null;
  /** presentation.tool_use_id → presentation entry, newest in the chain winning (§8). */
  presentations: Map<string, number>;
  /** turn_card.turn_id → turn_card entry, newest winning. */
  cards: Map<string, number>;
  /** Packets in chain order. */
  packets: PacketRef[];
}

export function scanChain(ledger: EntryReader, chain: Int32Array): ChainContext {
  const empty: ChainContext = {
    chain,
    resetPos: -1,
    resetSummary: '',
    intent: -1,
    intentText: null,
    presentations: new Map(),
    cards: new Map(),
    packets: [],
  };
  return extendChainContext(ledger, empty, chain, 0);
}

/**
 * The context of `chain` from the context of its first `from` entries (a leaf above it): only the
 * entries after them are looked at. What they do not change is shared with `prev` (the same Map and
 * array objects, so a caller can tell by identity that no presentation, card or packet came).
 */
export function extendChainContext(
  ledger: EntryReader,
  prev: ChainContext,
  chain: Int32Array,
  from: number,
): ChainContext {
  const index = ledger.index;
  const ctx: ChainContext = { ...prev, chain };
  // Copied on the first change: `prev`'s own stay as they are.
  let ownPresentations = false;
  let ownCards = false;
  let ownPackets = false;
  for (let pos = from; pos < chain.length; pos++) {
    const i = chain[pos];
    const k = index.kind[i];
    if (k === KIND.compaction) {
      if (index.flags[i] & F_RESET) ctx.resetPos = pos;
      const range = index.packetRange.get(i);
      if (range) {
        if (!ownPackets) ctx.packets = [...ctx.packets];
        ownPackets = true;
        ctx.packets.push({ entry: i, id: index.ids[i], firstTurnId: range[0], lastTurnId: range[1] });
      }
    } else if (k === KIND.intent) {
      ctx.intent = i;
    } else if (k === KIND.presentation || k === KIND.turn_card) {
      const key = index.routeKey.get(i);
      if (key === undefined) continue;
      if (k === KIND.presentation) {
        if (!ownPresentations) ctx.presentations = new Map(ctx.presentations);
        ownPresentations = true;
        ctx.presentations.set(key, i);
      } else {
        if (!ownCards) ctx.cards = new Map(ctx.cards);
        ownCards = true;
        ctx.cards.set(key, i);
      }
    }
  }
  if (ctx.resetPos >= 0 && ctx.resetPos !== prev.resetPos) {
    const reset = ledger.entry(chain[ctx.resetPos]);
    ctx.resetSummary = reset.kind === 'compaction' && reset.reset ? reset.reset.summary : '';
  }
  if (ctx.intent >= 0 && ctx.intent !== prev.intent) {
    const intent = ledger.entry(ctx.intent);
    ctx.intentText = intent.kind === 'intent' ? intent.modelVisible : null;
  }
  return ctx;
}

/** The ack a card call's input becomes (§5.3), or undefined when the call is no card call. */
export function ackFor(ledger: EntryReader, ctx: ChainContext, toolUseId: string): Json | undefined {
  const i = ctx.presentations.get(toolUseId);
  if (i === undefined) return undefined;
  const p = ledger.entry(i);
  return p.kind === 'presentation' ? p.presentation.ack : null;
}

/** A packet's summary text, read from its entry. */
export function packetSummary(ledger: EntryReader, ref: PacketRef): string {
  const e = ledger.entry(ref.entry);
  return e.kind === 'compaction' && e.packet ? e.packet.summary : '';
}

/**
 * Resolves a tool_result's tool name: the nearest assistant tool_use with that id
 * at or before chain position `pos` (§5: `unknown` when none).
 */
export function toolNameFor(ledger: EntryReader, ctx: ChainContext, pos: number, toolUseId: string): string {
  const index: LedgerIndex = ledger.index;
  for (let p = pos; p >= 0; p--) {
    const i = ctx.chain[p];
    if ((index.flags[i] & F_ASSISTANT) === 0) continue;
    for (const b of messageContent(ledger.entry(i))) {
      if (isObject(b) && b['type'] === 'tool_use' && b['id'] === toolUseId && typeof b['name'] === 'string') {
        return b['name'];
      }
    }
  }
  return 'unknown';
}

/** The blocks of a message entry as recorded; none for any other entry. */
function messageContent(e: LedgerEntry): Json[] {
  return e.kind === 'message' ? e.message.content : [];
}
