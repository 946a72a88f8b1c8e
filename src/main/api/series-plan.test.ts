import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { choosePlan, type PlanPacket, type PlanTurn } from '../core/plan';
import { FID_CARD, FID_FULL, FID_PACKET, planPoint } from './series-plan';

/** Random closed turns and usable packets, as a projection would hand them to the plan. */
const planInput = fc
  .record({
    turns: fc.array(
      fc.record({ full: fc.integer({ min: 1, max: 500 }), card: fc.option(fc.integer({ min: 1, max: 300 })) }),
      {
        minLength: 0,
        maxLength: 30,
      },
    ),
    packets: fc.array(fc.record({ a: fc.nat(), b: fc.nat(), tokens: fc.integer({ min: 1, max: 800 }) }), {
      maxLength: 6,
    }),
    available: fc.integer({ min: -100, max: 8000 }),
    auto: fc.boolean(),
  })
  .map(({ turns, packets, available, auto }) => {
    const n = turns.length;
    const ps =
      n === 0
        ? []
        : packets
            .map((p, k) => {
              const x = p.a % n;
              const y = p.b % n;
              return { id: `p${k}`, first: Math.min(x, y), last: Math.max(x, y), tokens: p.tokens };
            })
            .sort((a, b) => a.first - b.first);
    return { turns, packets: ps, available, auto };
  });

describe('series plan', () => {
  it('chooses exactly what the core choosePlan chooses (no overrides)', () => {
    fc.assert(
      fc.property(planInput, ({ turns, packets, available, auto }) => {
        const full = Float64Array.from(turns.map((t) => t.full));
        const prefixFull = new Float64Array(turns.length + 1);
        turns.forEach((t, k) => (prefixFull[k + 1] = prefixFull[k] + t.full));
        const fidelity = new Uint8Array(turns.length);
        const mine = planPoint(
          { full, prefixFull },
          turns.length,
          (k) => turns[k].card ?? -1,
          packets,
          available,
          auto,
          fidelity,
        );

        const coreTurns: PlanTurn<null>[] = turns.map((t, k) => ({
          id: `t${k}`,
          fullTokens: t.full,
          card: t.card === null ? null : { tokens: t.card, value: null },
        }));
        const corePackets: PlanPacket<null>[] = packets.map((p) => ({ ...p, value: null }));
        const core = choosePlan(coreTurns, corePackets, available, auto);
        expect(mine.need).toBe(core.need);
        const codes = core.choices.map((c) =>
          c.fidelity === 'full' ? FID_FULL : c.fidelity === 'card' ? FID_CARD : FID_PACKET,
        );
        expect([...fidelity]).toEqual(codes);
        const used = new Set(core.choices.flatMap((c) => (c.fidelity === 'packet' ? [c.packet.id] : [])));
        expect(new Set(mine.packetsUsed.map((p) => p.id))).toEqual(used);
        expect(mine.fullTokens + mine.cardTokens + mine.packetTokens).toBe(core.need);
      }),
      { numRuns: 2000 },
    );
  });
});
