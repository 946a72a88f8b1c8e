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
import { planLeaf, projectionOf } from './leaf-plan';
import { project, projectLeaf } from './projection';
import { referencePlan, type RefChoice } from './reference-plan';
import { DEFAULT_PROFILE, tokensOf } from './tokens';
import { stringifyJson } from '../../shared/json-text';

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
    // When no turn has a card: say so (TurnCosts.anyCard), or leave the engine to find out.
    sayNoCards: fc.boolean(),
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

const codeOf = (c: RefChoice): number => (c === 'full' ? FID_FULL : c === 'card' ? FID_CARD : FID_PACKET);

describe('plan engine', () => {
  it('chooses what the reference plan chooses on any numbers, with the same notes', () => {
    fc.assert(
      fc.property(planInput, ({ turns, packets, available, auto, ov, withPrefix, sayNoCards }) => {
        const n = turns.length;
        const full = turns.map((t) => t.full);
        const costs: TurnCosts = {
          full: Float64Array.from(full),
          card: Float64Array.from(turns.map((t) => t.card ?? -1)),
        };
        if (sayNoCards && turns.every((t) => t.card === null)) costs.anyCard = false;
        if (withPrefix) {
          costs.prefix = new Float64Array(n + 1);
          full.forEach((f, k) => (costs.prefix![k + 1] = costs.prefix![k] + f));
        }
        const byId = new Map<string, TurnOverride>();
        ov.forEach((o, k) => o && byId.set(`t${k}`, o));
        const overrides = overridesByPosition(byId, (id) => Number(id.slice(1)), n);
        const got = planClosedTurns(costs, n, packets, available, auto, overrides);
        const refTurns = turns.map((t, k) => ({ id: `t${k}`, full: t.full, card: t.card }));
        const want = referencePlan(refTurns, packets, available, auto, byId);
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

/**
 * The whole pipeline: a leaf's plan (the engine, as leaf views, pages, the CLI and exports use it)
 * gives the projection `project()` (the reference) gives, message for message.
 */
describe('planLeaf against project()', () => {
  const ledgers = [
    ...fixtureCases().map((c) => Ledger.fromBytes(readFileSync(c.file))),
    ...[11, 12].map((seed) =>
      Ledger.fromBytes(generateSession({ seed, entries: 700, cwd: '/w', branchChance: 0.1 }).bytes),
    ),
  ];

  /** What the compared projections held: the comparisons must reach cards, packets and notes. */
  const seen = new Set<string>();
  const same = (
    ledger: Ledger,
    leaf: number,
    profile: CapacityProfile,
    auto: boolean,
    overrides?: Map<string, TurnOverride>,
  ): void => {
    const opts = { plan: auto ? ('auto' as const) : ('none' as const), profile, overrides };
    const want = project(ledger, leaf, opts);
    for (const r of want.plan) seen.add(r.fidelity);
    if (want.notes.length > 0) seen.add('note');
    const p = planLeaf(ledger, leaf, opts);
    const messages = p.messages(0, p.messageCount);
    expect(projectionOf(p, messages)).toEqual(want);
    expect(messages.map((_, m) => p.fidelityOf(m))).toEqual(want.messages.map((m) => m.fidelity));
  };

  it('on every leaf of every fixture, under tight and loose budgets', () => {
    for (const ledger of ledgers.slice(0, -2)) {
      for (let leaf = 0; leaf < ledger.index.count; leaf++) {
        for (const window of [0, 600, 3_000, 200_000])
          same(ledger, leaf, { window, reserve: 100, bytes_per_token: 4 }, true);
        same(ledger, leaf, DEFAULT_PROFILE, false);
      }
    }
    expect([...seen].sort()).toEqual(['card', 'full', 'packet']);
  });

  it('at random leaves, budgets, bytes per token and overrides', () => {
    const input = fc.record({
      ledger: fc.nat(ledgers.length - 1),
      leaf: fc.nat(),
      window: fc.integer({ min: 0, max: 60_000 }),
      reserve: fc.integer({ min: 0, max: 2_000 }),
      bpt: fc.constantFrom(1, 2, 3, 4, 7),
      auto: fc.boolean(),
      overrides: fc.array(fc.oneof(fc.constant(-1), fc.constant(-2), fc.constant(-3), fc.nat(5)), { maxLength: 40 }),
    });
    fc.assert(
      fc.property(input, ({ ledger: which, leaf: pick, window, reserve, bpt, auto, overrides }) => {
        const ledger = ledgers[which];
        if (ledger.index.count === 0) return;
        const leaf = pick % ledger.index.count;
        const plain = projectLeaf(ledger, leaf, { plan: 'none' });
        const byId = new Map<string, TurnOverride>();
        plain.turnIndex.turns.forEach((t, k) => {
          const o = overrides[k] ?? -1;
          if (o === -2) byId.set(t.id, { fidelity: 'full' });
          else if (o === -3) byId.set(t.id, { fidelity: 'card' });
          else if (o >= 0) byId.set(t.id, { fidelity: 'packet', packet_id: plain.ctx.packets[o]?.id ?? 'nope' });
        });
        same(ledger, leaf, { window, reserve, bytes_per_token: bpt }, auto, byId);
      }),
      { numRuns: 300 },
    );
    expect(seen).toContain('note');
  });
});
