import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { choosePlan, type PlanPacket, type PlanTurn } from '../core/plan';
import type { TurnOverride } from '../../shared/ledger-types';
import { FID_CARD, FID_FULL, FID_PACKET, OV_CARD, OV_FULL, OV_NONE, OV_PACKET, planPoint } from './series-plan';

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
    // Per turn: no override, full, card, or a packet (by index into the packets, maybe not covering it).
    overrides: fc.array(fc.oneof(fc.constant(-1), fc.constant(-2), fc.constant(-3), fc.nat(8)), { maxLength: 30 }),
  })
  .map(({ turns, packets, available, auto, overrides }) => {
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
    const ov: (TurnOverride | null)[] = turns.map((_, k) => {
      const o = overrides[k] ?? -1;
      if (o === -1) return null;
      if (o === -2) return { fidelity: 'full' };
      if (o === -3) return { fidelity: 'card' };
      return { fidelity: 'packet', packet_id: `p${o}` };
    });
    return { turns, packets: ps, available, auto, ov };
  });

describe('series plan', () => {
  it('chooses exactly what the core choosePlan chooses, with and without overrides', () => {
    fc.assert(
      fc.property(planInput, fc.boolean(), ({ turns, packets, available, auto, ov }, withOverrides) => {
        const full = Float64Array.from(turns.map((t) => t.full));
        const prefixFull = new Float64Array(turns.length + 1);
        turns.forEach((t, k) => (prefixFull[k + 1] = prefixFull[k] + t.full));
        const fidelity = new Uint8Array(turns.length);
        const kinds = { full: OV_FULL, card: OV_CARD, packet: OV_PACKET };
        const seriesOv = withOverrides
          ? {
              kind: Uint8Array.from(ov.map((o) => (o ? kinds[o.fidelity] : OV_NONE))),
              packetId: ov.map((o) => (o?.fidelity === 'packet' ? o.packet_id : null)),
            }
          : null;
        const mine = planPoint(
          { full, prefixFull },
          turns.length,
          (k) => turns[k].card ?? -1,
          packets,
          available,
          auto,
          fidelity,
          seriesOv,
        );

        const coreTurns: PlanTurn<null>[] = turns.map((t, k) => ({
          id: `t${k}`,
          fullTokens: t.full,
          card: t.card === null ? null : { tokens: t.card, value: null },
        }));
        const corePackets: PlanPacket<null>[] = packets.map((p) => ({ ...p, value: null }));
        const coreOv = new Map<string, TurnOverride>();
        if (withOverrides) ov.forEach((o, k) => o && coreOv.set(`t${k}`, o));
        const core = choosePlan(coreTurns, corePackets, available, auto, coreOv);
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
