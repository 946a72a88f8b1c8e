/**
 * §6 plan choice written plainly, one object per closed turn: the reference `project()` uses and
 * the property tests hold the plan engine (plan-engine.ts) to. It shares no code with the engine,
 * so a slip in either one shows as a disagreement (plan-engine.test.ts).
 */
import type { TurnOverride } from '../../shared/ledger-types';

/** A closed turn as the reference sees it: its Full cost, and its Card cost (null without a card). */
export interface RefTurn {
  id: string;
  full: number;
  card: number | null;
}

/** A usable packet: its id, its range of closed-turn positions (first ≤ last), its cost. */
export interface RefPacket {
  id: string;
  first: number;
  last: number;
  tokens: number;
}

/** What one closed turn became: Full, Card, or behind a packet (its index in the packets given). */
export type RefChoice = 'full' | 'card' | { packet: number };

/** §6 steps 1–4, after the per-turn overrides (docs/spec-decisions.md). */
export function referencePlan(
  turns: readonly RefTurn[],
  packets: readonly RefPacket[],
  available: number,
  auto: boolean,
  overrides: ReadonlyMap<string, TurnOverride> = new Map(),
): { choices: RefChoice[]; need: number; notes: string[] } {
  const choices: RefChoice[] = turns.map(() => 'full');
  const fixed = turns.map(() => false);
  const notes: string[] = [];
  const free = (p: RefPacket): boolean => {
    for (let k = p.first; k <= p.last; k++) if (fixed[k] || choices[k] !== 'full') return false;
    return true;
  };
  const total = (): number => {
    let n = 0;
    const seen = new Set<number>();
    choices.forEach((c, k) => {
      if (c === 'full') n += turns[k].full;
      else if (c === 'card') n += turns[k].card ?? 0;
      else if (!seen.has(c.packet)) {
        seen.add(c.packet);
        n += packets[c.packet].tokens;
      }
    });
    return n;
  };

  // Overrides first, in turn order; an overridden turn is then fixed (a refused one stays Full).
  turns.forEach((t, k) => {
    const o = overrides.get(t.id);
    if (!o) return;
    if (fixed[k]) {
      notes.push(`turn ${t.id}: override ignored, the turn is already behind a forced packet`);
      return;
    }
    if (o.fidelity === 'card') {
      if (t.card === null) notes.push(`turn ${t.id}: no turn card in this chain; kept Full`);
      else choices[k] = 'card';
    } else if (o.fidelity === 'packet') {
      const j = packets.findIndex((q) => q.id === o.packet_id && q.first <= k && k <= q.last);
      if (j < 0) notes.push(`turn ${t.id}: packet ${o.packet_id} is not usable for this turn; kept Full`);
      else if (!free(packets[j]))
        notes.push(`turn ${t.id}: packet ${o.packet_id} overlaps a turn already fixed; kept Full`);
      else
        for (let i = packets[j].first; i <= packets[j].last; i++) {
          choices[i] = { packet: j };
          fixed[i] = true;
        }
    }
    fixed[k] = true;
  });

  let need = total();
  if (auto) {
    // Step 2: packets, oldest first turn first (ties in the order given), when cheaper than their range.
    const order = packets.map((_, j) => j).sort((a, b) => packets[a].first - packets[b].first || a - b);
    for (const j of order) {
      const p = packets[j];
      if (need <= available) break;
      if (!free(p)) continue;
      let range = 0;
      for (let k = p.first; k <= p.last; k++) range += turns[k].full;
      if (p.tokens < range) {
        for (let k = p.first; k <= p.last; k++) choices[k] = { packet: j };
        need += p.tokens - range;
      }
    }
    // Step 3: cards, oldest turn first, for free Full turns whose card is cheaper.
    for (let k = 0; k < turns.length && need > available; k++) {
      const c = turns[k].card;
      if (!fixed[k] && choices[k] === 'full' && c !== null && c < turns[k].full) {
        choices[k] = 'card';
        need += c - turns[k].full;
      }
    }
  }
  return { choices, need, notes };
}
