import type { TurnOption } from '../../shared/api';
import type { ChainContext } from '../core/chain-context';
import { entryPreview } from '../core/entry-preview';
import type { Ledger } from '../core/ledger';
import { usablePackets } from '../core/projection';
import type { TurnIndex } from '../core/turn-index';

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
    directive: entryPreview(ledger.entry(t.entries[0])).text,
    hasCard: ctx.cards.has(t.id),
    packets: packets
      .filter((p) => p.first <= k && k <= p.last)
      .map((p) => ({ packet_id: p.ref.id, first_turn_id: p.ref.firstTurnId, last_turn_id: p.ref.lastTurnId })),
  }));
}
