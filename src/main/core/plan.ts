/**
 * §6 plan choice, over numbers only: which fidelity each closed turn gets.
 * Kept apart from message shaping so the rule can be read (and tested) on its own.
 */

import type { TurnFidelity, TurnOverride } from '../../shared/ledger-types';

export type { TurnFidelity, TurnOverride };

/** A closed turn as the plan sees it; `card` carries what the caller projects for it (`C`). */
export interface PlanTurn<C = unknown> {
  id: string;
  fullTokens: number;
  /** The turn as a Card, or null when the turn has no turn card in the chain. */
  card: PlanCard<C> | null;
}

export interface PlanCard<C = unknown> {
  tokens: number;
  value: C;
}

export interface PlanPacket<P = unknown> {
  id: string;
  /** Positions in the closed-turn list, first ≤ last (only usable packets are given). */
  first: number;
  last: number;
  tokens: number;
  value: P;
}

/** The fidelity chosen for one closed turn, with what that fidelity stands on. */
export type PlanChoice<C = unknown, P = unknown> =
  | { fidelity: 'full' }
  | { fidelity: 'card'; card: PlanCard<C> }
  /** The turn stands behind `packet`, which replaces its whole range. */
  | { fidelity: 'packet'; packet: PlanPacket<P> };

export interface PlanResult<C = unknown, P = unknown> {
  choices: PlanChoice<C, P>[];
  need: number;
  /** Overrides that could not be applied, said in words. */
  notes: string[];
}

/** §6 steps 1–4 (after per-turn overrides, docs/spec-decisions.md): a fidelity for every closed turn. */
export function choosePlan<C, P>(
  turns: readonly PlanTurn<C>[],
  packets: readonly PlanPacket<P>[],
  available: number,
  auto: boolean,
  overrides: ReadonlyMap<string, TurnOverride> = new Map(),
): PlanResult<C, P> {
  const FULL: PlanChoice<C, P> = { fidelity: 'full' };
  const choices: PlanChoice<C, P>[] = turns.map(() => FULL);
  const fixed = new Uint8Array(turns.length);
  const notes: string[] = [];
  const cost = (k: number): number => {
    const c = choices[k];
    return c.fidelity === 'card' ? c.card.tokens : turns[k].fullTokens;
  };
  const rangeFree = (p: PlanPacket<P>): boolean => {
    for (let k = p.first; k <= p.last; k++) if (fixed[k] || choices[k].fidelity !== 'full') return false;
    return true;
  };
  const applyPacket = (p: PlanPacket<P>): void => {
    for (let k = p.first; k <= p.last; k++) choices[k] = { fidelity: 'packet', packet: p };
  };

  turns.forEach((t, k) => {
    const o = overrides.get(t.id);
    if (!o || fixed[k]) {
      if (o) notes.push(`turn ${t.id}: override ignored, the turn is already behind a forced packet`);
      return;
    }
    if (o.fidelity === 'card') {
      if (t.card === null) notes.push(`turn ${t.id}: no turn card in this chain; kept Full`);
      else choices[k] = { fidelity: 'card', card: t.card };
    } else if (o.fidelity === 'packet') {
      const p = packets.find((q) => q.id === o.packet_id && q.first <= k && k <= q.last);
      if (!p) {
        notes.push(`turn ${t.id}: packet ${o.packet_id} is not usable for this turn; kept Full`);
      } else if (!rangeFree(p)) {
        notes.push(`turn ${t.id}: packet ${o.packet_id} overlaps a turn already fixed; kept Full`);
      } else {
        applyPacket(p);
        for (let j = p.first; j <= p.last; j++) fixed[j] = 1;
      }
    }
    fixed[k] = 1;
  });

  const packetsUsed = new Set<PlanPacket<P>>();
  const total = (): number => {
    let n = 0;
    packetsUsed.clear();
    turns.forEach((_, k) => {
      const c = choices[k];
      if (c.fidelity === 'packet') {
        if (!packetsUsed.has(c.packet)) n += c.packet.tokens;
        packetsUsed.add(c.packet);
      } else n += cost(k);
    });
    return n;
  };
  let need = total();

  if (auto) {
    // Step 2: packets, oldest first turn first; ties keep chain order (stable sort).
    const ordered = [...packets].sort((a, b) => a.first - b.first);
    for (const p of ordered) {
      if (need <= available) break;
      if (!rangeFree(p)) continue;
      let rangeCost = 0;
      for (let k = p.first; k <= p.last; k++) rangeCost += cost(k);
      if (p.tokens < rangeCost) {
        applyPacket(p);
        need += p.tokens - rangeCost;
      }
    }
    // Step 3: cards, oldest turn first, for turns not behind a packet.
    for (let k = 0; k < turns.length && need > available; k++) {
      const t = turns[k];
      if (fixed[k] || choices[k].fidelity !== 'full' || t.card === null) continue;
      if (t.card.tokens < t.fullTokens) {
        choices[k] = { fidelity: 'card', card: t.card };
        need += t.card.tokens - t.fullTokens;
      }
    }
  }
  return { choices, need, notes };
}
