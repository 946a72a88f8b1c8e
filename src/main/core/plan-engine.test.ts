import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CapacityProfile, TurnOverride } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { fixtureCases } from '../../test-support/fixtures';
import { Ledger } from './ledger';
import { cardTurn, packetMessage, usablePackets } from './message-shapes';
import {
  FID_CARD,
  FID_FULL,
  FID_PACKET,
  noteText,
  overridesByPosition,
  planClosedTurns,
  type EnginePacket,
  type TurnCosts,
} from './plan-engine';
import { projectLeaf } from './projection';
import { tokensOf } from './tokens';
import { stringifyJson } from '../../shared/json-text';

type Choice = 'full' | 'card' | { packet: number };

/**
 * §6 steps 1–4 after the overrides (docs/spec-decisions.md), transcribed as plainly as the spec
 * words them, one object per turn: what the engine must choose on any numbers.
 */
function specPlan(
  full: number[],
  card: (number | null)[],
  packets: EnginePacket[],
  available: number,
  auto: boolean,
  overrides: (TurnOverride | null)[],
): { choices: Choice[]; need: number; notes: string[] } {
  const choices: Choice[] = full.map(() => 'full');
  const fixed = full.map(() => false);
  const notes: string[] = [];
  const free = (p: EnginePacket): boolean => {
    for (let k = p.first; k <= p.last; k++) if (fixed[k] || choices[k] !== 'full') return false;
    return true;
  };
  const need = (): number => {
    let n = 0;
    const seen = new Set<number>();
    choices.forEach((c, k) => {
      if (c === 'full') n += full[k];
      else if (c === 'card') n += card[k]!;
      else if (!seen.has(c.packet)) {
        seen.add(c.packet);
        n += packets[c.packet].tokens;
      }
    });
    return n;
  };
  overrides.forEach((o, k) => {
    if (!o) return;
    if (fixed[k]) {
      notes.push(`turn t${k}: override ignored, the turn is already behind a forced packet`);
      return;
    }
    if (o.fidelity === 'card') {
      if (card[k] === null) notes.push(`turn t${k}: no turn card in this chain; kept Full`);
      else choices[k] = 'card';
    } else if (o.fidelity === 'packet') {
      const j = packets.findIndex((q) => q.id === o.packet_id && q.first <= k && k <= q.last);
      if (j < 0) notes.push(`turn t${k}: packet ${o.packet_id} is not usable for this turn; kept Full`);
      else if (!free(packets[j]))
        notes.push(`turn t${k}: packet ${o.packet_id} overlaps a turn already fixed; kept Full`);
      else {
        for (let i = packets[j].first; i <= packets[j].last; i++) {
          choices[i] = { packet: j };
          fixed[i] = true;
        }
      }
    }
    fixed[k] = true;
  });
  if (auto) {
    const order = packets.map((_, j) => j).sort((a, b) => packets[a].first - packets[b].first || a - b);
    for (const j of order) {
      const p = packets[j];
      if (need() <= available) break;
      if (!free(p)) continue;
      let range = 0;
      for (let k = p.first; k <= p.last; k++) range += full[k];
      if (p.tokens < range) for (let k = p.first; k <= p.last; k++) choices[k] = { packet: j };
    }
    for (let k = 0; k < full.length && need() > available; k++) {
      if (!fixed[k] && choices[k] === 'full' && card[k] !== null && card[k]! < full[k]) choices[k] = 'card';
    }
  }
  return { choices, need: need(), notes };
}

/** Random closed turns, packets (in any order, overlapping) and overrides, as a chain would give them. */
const planInput = fc
  .record({
    turns: fc.array(
      fc.record({ full: fc.integer({ min: 1, max: 500 }), card: fc.option(fc.integer({ min: 1, max: 300 })) }),
      { maxLength: 30 },
    ),
    packets: fc.array(fc.record({ a: fc.nat(), b: fc.nat(), tokens: fc.integer({ min: 1, max: 800 }) }), {
      maxLength: 6,
    }),
    available: fc.integer({ min: -100, max: 8000 }),
    auto: fc.boolean(),
    // Per turn: no override, full, card, or a packet (by index into the packets, maybe not covering it).
    overrides: fc.array(fc.oneof(fc.constant(-1), fc.constant(-2), fc.constant(-3), fc.nat(8)), { maxLength: 30 }),
    withPrefix: fc.boolean(),
  })
  .map(({ turns, packets, overrides, ...rest }) => {
    const n = turns.length;
    const ps: EnginePacket[] =
      n === 0
        ? []
        : packets.map((p, k) => {
            const x = p.a % n;
            const y = p.b % n;
            return { id: `p${k}`, first: Math.min(x, y), last: Math.max(x, y), tokens: p.tokens };
          });
    const ov = turns.map((_, k): TurnOverride | null => {
      const o = overrides[k] ?? -1;
      if (o === -1) return null;
      if (o === -2) return { fidelity: 'full' };
      if (o === -3) return { fidelity: 'card' };
      return { fidelity: 'packet', packet_id: `p${o}` };
    });
    return { turns, packets: ps, ov, ...rest };
  });

const codeOf = (c: Choice): number => (c === 'full' ? FID_FULL : c === 'card' ? FID_CARD : FID_PACKET);

describe('plan engine', () => {
  it('chooses what §6 (after overrides) chooses on any numbers, with the same notes', () => {
    fc.assert(
      fc.property(planInput, ({ turns, packets, available, auto, ov, withPrefix }) => {
        const n = turns.length;
        const full = turns.map((t) => t.full);
        const costs: TurnCosts = {
          full: Float64Array.from(full),
          card: Float64Array.from(turns.map((t) => t.card ?? -1)),
        };
        if (withPrefix) {
          costs.prefix = new Float64Array(n + 1);
          full.forEach((f, k) => (costs.prefix![k + 1] = costs.prefix![k] + f));
        }
        const byId = new Map<string, TurnOverride>();
        ov.forEach((o, k) => o && byId.set(`t${k}`, o));
        const overrides = overridesByPosition(byId, (id) => Number(id.slice(1)), n);
        const got = planClosedTurns(costs, n, packets, available, auto, overrides);
        const want = specPlan(
          full,
          turns.map((t) => t.card),
          packets,
          available,
          auto,
          ov,
        );
        expect([...got.fidelity]).toEqual(want.choices.map(codeOf));
        expect(got.need).toBe(want.need);
        expect(got.fullTokens + got.cardTokens + got.packetTokens).toBe(want.need);
        expect(got.full + got.card + got.packet).toBe(n);
        expect(got.notes.map((x) => noteText(x, `t${x.turn}`))).toEqual(want.notes);
        const behind = new Array<number>(n).fill(-1);
        for (const j of got.packetsUsed) behind.fill(j, packets[j].first, packets[j].last + 1);
        expect(behind).toEqual(want.choices.map((c) => (typeof c === 'object' ? c.packet : -1)));
      }),
      { numRuns: 3000 },
    );
  });

  it('plans only the first m turns: a packet reaching past them is not used', () => {
    const costs = { full: Float64Array.of(100, 100, 100), card: Float64Array.of(-1, -1, -1) };
    const packets = [{ id: 'p', first: 1, last: 2, tokens: 1 }];
    expect([...planClosedTurns(costs, 2, packets, 0, true).fidelity]).toEqual([FID_FULL, FID_FULL]);
    expect([...planClosedTurns(costs, 3, packets, 0, true).fidelity]).toEqual([FID_FULL, FID_PACKET, FID_PACKET]);
  });
});

/**
 * The engine fed with the costs of the reference projection's own messages (every closed turn at
 * Full, each Card and packet shaped) chooses the plan `project()` gives, on the fixtures and on
 * generated ledgers, under random budgets, overrides and bytes per token.
 */
describe('plan engine against project()', () => {
  const fixtures = fixtureCases()
    .filter((c) => c.name !== 'missing-header')
    .map((c) => Ledger.fromBytes(readFileSync(c.file)));
  const generated = [11, 12].map((seed) =>
    Ledger.fromBytes(generateSession({ seed, entries: 700, cwd: '/w', branchChance: 0.1 }).bytes),
  );
  const ledgers = [...fixtures, ...generated];

  const leafInput = fc.record({
    ledger: fc.nat(ledgers.length - 1),
    leaf: fc.nat(),
    window: fc.integer({ min: 0, max: 60_000 }),
    reserve: fc.integer({ min: 0, max: 2_000 }),
    bpt: fc.constantFrom(1, 3, 4),
    auto: fc.boolean(),
    overrides: fc.array(fc.oneof(fc.constant(-1), fc.constant(-2), fc.constant(-3), fc.nat(5)), { maxLength: 40 }),
  });

  it('agrees with project() at random leaves', () => {
    fc.assert(
      fc.property(leafInput, ({ ledger: which, leaf: pick, window, reserve, bpt, auto, overrides }) => {
        const ledger = ledgers[which];
        const ix = ledger.index;
        if (ix.count === 0) return;
        const leaf = pick % ix.count;
        const profile: CapacityProfile = { window, reserve, bytes_per_token: bpt };

        // The reference at every turn Full: each closed turn's cost from its shaped messages.
        const plain = projectLeaf(ledger, leaf, { plan: 'none', profile });
        const closed = plain.turnIndex.turns.filter((t) => !t.open);
        const full = new Float64Array(closed.length);
        const position = new Map(closed.map((t, k) => [t.id, k]));
        let fixedParts = 0;
        for (const m of plain.projection.messages) {
          if (m.fidelity === 'full') full[position.get(m.turn_id!)!] += m.tokens;
          else fixedParts += m.tokens;
        }
        const card = Float64Array.from(closed, (t) => cardTurn(ledger, plain.ctx, t, bpt)?.tokens ?? -1);
        const usable = usablePackets(plain.ctx, closed);
        const packets = usable.map(({ ref, first, last }) => ({
          id: ref.id,
          first,
          last,
          tokens: packetMessage(ledger, ref, last - first + 1, closed[first].id, bpt).tokens,
        }));
        const { system, tools } = plain.projection;
        const available = window - reserve - tokensOf(system, bpt) - tokensOf(stringifyJson(tools), bpt) - fixedParts;

        const byId = new Map<string, TurnOverride>();
        closed.forEach((t, k) => {
          const o = overrides[k] ?? -1;
          if (o === -2) byId.set(t.id, { fidelity: 'full' });
          else if (o === -3) byId.set(t.id, { fidelity: 'card' });
          else if (o >= 0) byId.set(t.id, { fidelity: 'packet', packet_id: plain.ctx.packets[o]?.id ?? 'nope' });
        });
        const plan = planClosedTurns(
          { full, card },
          closed.length,
          packets,
          available,
          auto,
          overridesByPosition(byId, (id) => position.get(id), closed.length),
        );

        const ref = projectLeaf(ledger, leaf, { plan: auto ? 'auto' : 'none', profile, overrides: byId }).projection;
        expect(ref.tokens.available).toBe(available);
        expect(ref.over_budget).toBe(Math.max(0, plan.need - available));
        expect(ref.notes).toEqual(plan.notes.map((x) => noteText(x, closed[x.turn].id)));
        const names = ['full', 'card', 'packet'];
        const behind = new Int32Array(closed.length);
        for (const j of plan.packetsUsed) behind.fill(j, packets[j].first, packets[j].last + 1);
        expect(ref.plan.map((r) => [r.turn_id, r.fidelity, r.packet_id])).toEqual(
          closed.map((t, k) => [
            t.id,
            names[plan.fidelity[k]],
            plan.fidelity[k] === FID_PACKET ? packets[behind[k]].id : null,
          ]),
        );
        expect(ref.tokens.messages).toBe(fixedParts + plan.fullTokens + plan.cardTokens + plan.packetTokens);
      }),
      { numRuns: 400 },
    );
  });
});
