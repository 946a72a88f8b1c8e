import {
  CHAIN_WINDOW,
  type ChainItem,
  type ChainItems,
  type ChainItemsRequest,
  type LeafView,
  type TurnOption,
} from '../../shared/api';
import type { Projection } from '../../shared/ledger-types';
import type { FakeEntry } from './fake-data';

/** The fake's leaf view: the last CHAIN_WINDOW items, counts and positions over the whole chain, as the backend answers. */
export function fakeLeafView(projection: Projection, chain: ChainItem[], turnOptions: TurnOption[]): LeafView {
  const chainStart = Math.max(0, chain.length - CHAIN_WINDOW);
  const kindCounts: Record<string, number> = {};
  for (const c of chain) kindCounts[c.kind] = (kindCounts[c.kind] ?? 0) + 1;
  const sourcePositions: Record<string, number> = {};
  for (const m of projection.messages) {
    for (const id of m.source_ids) {
      const pos = chain.findIndex((c) => c.id === id);
      if (pos >= 0) sourcePositions[id] = pos;
    }
  }
  return {
    leaf: projection.leaf,
    chainLength: chain.length,
    chainStart,
    chain: chain.slice(chainStart),
    kindCounts,
    sourcePositions,
    turnOptions,
    projection,
    clipped: [],
  };
}

/** A window of the chain, optionally only some kinds. */
export function fakeChainItems(chain: ChainItem[], req: ChainItemsRequest): ChainItems {
  const rows = req.kinds ? chain.filter((c) => req.kinds!.includes(c.kind)) : chain;
  const start = Math.min(req.start, rows.length);
  return { chainLength: chain.length, total: rows.length, start, items: rows.slice(start, start + req.count) };
}

/** Card and packet options of the closed turns (in order), read from the chain's turn cards and compactions. */
export function fakeTurnOptions(chain: FakeEntry[], closed: string[]): TurnOption[] {
  const cards = new Set(
    chain.flatMap((e) => (e.kind === 'turn_card' ? [(e.turn_card as { turn_id: string }).turn_id] : [])),
  );
  const packets = chain.flatMap((e) => {
    const p =
      e.kind === 'compaction' ? (e.packet as { first_turn_id?: string; last_turn_id?: string } | undefined) : undefined;
    const a = closed.indexOf(p?.first_turn_id ?? '');
    const b = closed.indexOf(p?.last_turn_id ?? '');
    return p && a >= 0 && b >= a
      ? [{ a, b, opt: { packet_id: e.id, first_turn_id: p.first_turn_id!, last_turn_id: p.last_turn_id! } }]
      : [];
  });
  return closed.map((turn_id, k) => ({
    turn_id,
    hasCard: cards.has(turn_id),
    packets: packets.filter((p) => p.a <= k && k <= p.b).map((p) => p.opt),
  }));
}
