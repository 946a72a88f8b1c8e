import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../../generator';
import { fixtureCases } from '../../test-support/fixtures';
import { chainToRoot } from './chain';
import { Ledger } from './ledger';
import { deriveMessages, deriveWithPlan, project } from './projection';

const ledgers = [
  ...fixtureCases()
    .filter((c) => c.name !== 'missing-header')
    .map((c) => ({ name: c.name, ledger: Ledger.fromBytes(readFileSync(c.file)) })),
  { name: 'generated', ledger: Ledger.fromBytes(generateSession({ seed: 11, entries: 1500, cwd: '/w' }).bytes) },
];

const UNBOUNDED = { window: Number.MAX_SAFE_INTEGER, reserve: 0, bytes_per_token: 4 };

describe('projection properties', () => {
  it('every projected message traces to entries on the chain of its leaf', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: ledgers.length - 1 }),
        fc.nat(),
        fc.integer({ min: 1, max: 400_000 }),
        fc.integer({ min: 1, max: 8 }),
        (k, leafSeed, window, bpt) => {
          const { ledger } = ledgers[k];
          const leaf = leafSeed % ledger.index.count;
          const onChain = new Set(Array.from(chainToRoot(ledger.index, leaf), (i) => ledger.index.ids[i]));
          const p = project(ledger, leaf, { plan: 'auto', profile: { window, reserve: 0, bytes_per_token: bpt } });
          expect(p.messages.length).toBeGreaterThan(0);
          for (const m of p.messages) {
            expect(m.source_ids.length).toBeGreaterThan(0);
            for (const id of m.source_ids) expect(onChain.has(id)).toBe(true);
          }
          expect(p.messages[p.messages.length - 1].fidelity).toBe('tail');
          expect(p.tokens.messages).toBe(p.messages.reduce((n, m) => n + m.tokens, 0));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('derive_with_plan with an unbounded budget equals derive_messages', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: ledgers.length - 1 }), fc.nat(), (k, leafSeed) => {
        const { ledger } = ledgers[k];
        const leaf = leafSeed % ledger.index.count;
        expect(deriveWithPlan(ledger, leaf, UNBOUNDED)).toEqual(deriveMessages(ledger, leaf, UNBOUNDED));
      }),
      { numRuns: 300 },
    );
  });

  it('a tighter budget never costs more, and reduces to packets and cards only', () => {
    const { ledger } = ledgers[ledgers.length - 1];
    const leaf = ledger.index.activeLeaf;
    const full = deriveMessages(ledger, leaf);
    const tight = deriveWithPlan(ledger, leaf, {
      window: Math.floor(full.tokens.total * 0.8),
      reserve: 0,
      bytes_per_token: 4,
    });
    expect(full.plan.length).toBeGreaterThan(2);
    expect(tight.tokens.messages).toBeLessThan(full.tokens.messages);
    expect(tight.plan.some((r) => r.fidelity !== 'full')).toBe(true);
    // Only closed turns change: reset, preamble, open turn and tail are the same messages.
    const fixed = (p: typeof full) => p.messages.filter((m) => !['full', 'card', 'packet'].includes(m.fidelity));
    expect(fixed(tight)).toEqual(fixed(full));
  });
});

describe('per-turn overrides', () => {
  const packets = ledgers.find((l) => l.name === 'packets')!.ledger;
  const leaf = packets.index.activeLeaf;

  it('forces a Card, a Packet and a Full where the auto plan would choose otherwise', () => {
    const base = project(packets, leaf, { plan: 'none' });
    const forced = project(packets, leaf, {
      plan: 'none',
      overrides: new Map([
        ['e0028', { fidelity: 'card' }],
        ['e0007', { fidelity: 'packet', packet_id: 'e0027' }],
      ]),
    });
    const row = (p: typeof base, t: string) => p.plan.find((r) => r.turn_id === t)!;
    expect(row(base, 'e0028').fidelity).toBe('full');
    expect(row(forced, 'e0028').fidelity).toBe('card');
    for (const t of ['e0002', 'e0007', 'e0012'])
      expect(row(forced, t)).toMatchObject({ fidelity: 'packet', packet_id: 'e0027' });
    expect(forced.notes).toEqual([]);

    const tight = { window: 1448, reserve: 1000, bytes_per_token: 4 };
    const auto = project(packets, leaf, { plan: 'auto', profile: tight });
    expect(row(auto, 'e0016').fidelity).toBe('card');
    const keepFull = project(packets, leaf, {
      plan: 'auto',
      profile: tight,
      overrides: new Map([['e0016', { fidelity: 'full' }]]),
    });
    expect(row(keepFull, 'e0016').fidelity).toBe('full');
    expect(keepFull.over_budget).toBeGreaterThan(auto.over_budget);
  });

  it('says why an override cannot apply', () => {
    const p = project(packets, leaf, {
      plan: 'none',
      overrides: new Map([['e0002', { fidelity: 'packet', packet_id: 'e0033' }]]),
    });
    expect(p.notes[0]).toMatch(/packet e0033 is not usable/);
    expect(p.plan[0].fidelity).toBe('full');
  });
});
