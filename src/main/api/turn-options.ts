import type { TurnOption } from '../../shared/api';
import type { ChainContext } from '../core/chain-context';
import { entryPreview } from '../core/entry-preview';
import type { Ledger } from '../core/ledger';
import type { LedgerIndex } from '../core/ledger-index';
import { usablePackets } from '../core/projection';
import type { TurnIndex } from '../core/turn-index';

/** Directive previews by entry, per ledger index: a leaf shares its turns with its neighbours, so each is read once. */
const previews = new WeakMap<LedgerIndex, Map<number, string>>();

function directivePreview(ledger: Ledger, i: number): string {
  let m = previews.get(ledger.index);
  if (!m) previews.set(ledger.index, (m = new Map()));
  let text = m.get(i);
  if (text === undefined) {
    text = entryPreview(ledger.entry(i)).text;
    m.set(i, text);
  }
  return text;
}

/**
 * What each closed turn could be forced to: a Card only when the chain holds
 * its turn card, a Packet only for usable packets (§6) whose range holds it.
 * The same facts `choosePlan` checks, so the UI offers nothing it would refuse.
 * Each turn also carries its directive's one-line preview (the turns panel names turns by it).
 */
export function turnOptions(ledger: Ledger, ctx: ChainContext, turns: TurnIndex): TurnOption[] {
  const closed = turns.turns.filter((t) => !t.open);
  const packets = usablePackets(ctx, closed);
  return closed.map((t, k) => ({
    turn_id: t.id,
    directive: directivePreview(ledger, t.entries[0]),
    hasCard: ctx.cards.has(t.id),
    packets: packets
      .filter((p) => p.first <= k && k <= p.last)
      .map((p) => ({ packet_id: p.ref.id, first_turn_id: p.ref.firstTurnId, last_turn_id: p.ref.lastTurnId })),
  }));
}
