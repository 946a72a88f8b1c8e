/**
 * The context series as it travels (columns): what the page unpacks is the series the backend built,
 * point for point, so the chart draws from it exactly what it drew from the series sent as objects.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ContextPoint, ContextSeries, PackedContextSeries } from '../../shared/api-series';
import type { CapacityProfile } from '../../shared/ledger-types';
import { packPoints, packSeries, unpackPoints, unpackSeries } from '../../shared/series-packed';
import { generateSession } from '../../generator';
import { fixtureCases } from '../../test-support/fixtures';
import { Ledger } from '../core/ledger';
import { contextSeries } from './context-series';

const ledgers = [
  ...fixtureCases()
    .filter((c) => c.name !== 'missing-header')
    .map((c) => ({ name: c.name, ledger: Ledger.fromBytes(readFileSync(c.file)) })),
  ...[5, 17].map((seed) => ({
    name: `generated seed ${seed}`,
    ledger: Ledger.fromBytes(generateSession({ seed, entries: 600, cwd: '/w', branchChance: 0.15 }).bytes),
  })),
];

const PROFILES: CapacityProfile[] = [
  { window: 200_000, reserve: 1000, bytes_per_token: 4 },
  // Small enough that turns degrade to cards and packets apply: every marker list is filled somewhere.
  { window: 400, reserve: 50, bytes_per_token: 4 },
];

/** The answer as the page gets it: packed, sent as JSON text, parsed and unpacked. */
const overTheWire = (s: ContextSeries): ContextSeries =>
  unpackSeries(JSON.parse(JSON.stringify(packSeries(s))) as PackedContextSeries);

/** Every series of the test ledgers: each leaf of the tree and the active one, both plans, both profiles. */
function* everySeries(): Generator<{ name: string; series: ContextSeries }> {
  for (const { name, ledger } of ledgers) {
    const ix = ledger.index;
    const leaves = new Set([ix.activeLeaf]);
    for (let i = 0; i < ix.count; i++) if (ix.childCount[i] === 0) leaves.add(i);
    for (const leaf of [...leaves].filter((l) => l >= 0).slice(0, 8))
      for (const profile of PROFILES)
        for (const plan of ['none', 'auto'] as const)
          yield { name, series: contextSeries(ledger, leaf, { key: 'k', leaf: null, plan, profile, overrides: {} }) };
  }
}

describe('the context series packed as columns', () => {
  it('unpacks to the very series that was packed (fixtures and generated ledgers, every marker kind)', () => {
    const seen = { series: 0, measured: 0, resets: 0, packets: 0, degraded: 0, nullTurn: 0 };
    for (const { name, series } of everySeries()) {
      const back = overTheWire(series);
      // The same series, so whatever the chart draws from it (a pure function of it) is the same.
      expect(back, name).toStrictEqual(series);
      seen.series++;
      for (const p of series.points) {
        if (p.measured) seen.measured++;
        if (p.markers.reset) seen.resets++;
        seen.packets += p.markers.packets.length;
        seen.degraded += p.markers.degraded.length;
        if (p.turnId === null) seen.nullTurn++;
      }
    }
    // The cases above hold every kind of field a point has, set and unset.
    for (const [what, count] of Object.entries(seen)) expect(count, what).toBeGreaterThan(0);
  });

  it('is much smaller than the points as objects', () => {
    const { ledger } = ledgers.find((l) => l.name === 'generated seed 5')!;
    const series = contextSeries(ledger, ledger.index.activeLeaf, {
      key: 'k',
      leaf: null,
      plan: 'auto',
      profile: PROFILES[0],
      overrides: {},
    });
    expect(series.points.length).toBeGreaterThan(20);
    const objects = JSON.stringify(series.points).length;
    const columns = JSON.stringify(packPoints(series.points)).length;
    expect(columns).toBeLessThan(objects / 2);
  });

  it('keeps a time that is not ISO text as it was written', () => {
    const p = pointAt(0, '2026-01-02T03:04:05Z');
    const q = { ...pointAt(1, '2026-01-02T03:04:06.000Z'), turnId: null, measured: null };
    const packed = packPoints([p, q]);
    expect(packed.tsMs).toBeNull();
    expect(unpackPoints(JSON.parse(JSON.stringify(packed)))).toStrictEqual([p, q]);
    expect(packPoints([q]).tsText).toBeNull();
  });

  it('refuses a number that is not a safe integer when packing, and an answer that does not hold together when unpacking', () => {
    expect(() => packPoints([{ ...pointAt(0, 'x'), total: 1.5 }])).toThrow(/total is not a safe integer/);
    const good = packPoints([pointAt(0, '2026-01-02T03:04:05.000Z'), pointAt(1, '2026-01-02T03:04:06.000Z')]);
    const broken: [string, (p: typeof good) => unknown][] = [
      ['a short column', (p) => ({ ...p, cols: { ...p.cols, total: [1] } })],
      ['a missing column', (p) => ({ ...p, cols: { ...p.cols, pos: undefined } })],
      ['a text in a column', (p) => ({ ...p, cols: { ...p.cols, pos: ['1', 2] } })],
      ['a fraction in a column', (p) => ({ ...p, cols: { ...p.cols, pos: [0.5, 1] } })],
      ['an id index past the ids', (p) => ({ ...p, ids: p.ids.slice(0, 1) })],
      ['a marker list past the lists', (p) => ({ ...p, cols: { ...p.cols, markPackets: [3, -3] } })],
      ['lists left over', (p) => ({ ...p, lists: [...p.lists, 0] })],
      ['no time at all', (p) => ({ ...p, tsMs: null })],
      ['a point count that is not', (p) => ({ ...p, n: -1 })],
    ];
    expect(unpackPoints(JSON.parse(JSON.stringify(good)))).toHaveLength(2);
    for (const [what, breakIt] of broken)
      expect(() => unpackPoints(breakIt(good) as typeof good), what).toThrow(/malformed/);
  });
});

function pointAt(i: number, ts: string): ContextPoint {
  return {
    leaf: `leaf-${i}`,
    pos: i * 3,
    ts,
    turnId: `turn-${i}`,
    parts: { system: 5, tools: 7, full: 100 * i, card: 0, packet: 0, reset: 0, preamble: 0, tail: 2, open: 1 },
    total: 115 + 100 * i,
    available: 1000 - 100 * i,
    overBudget: 0,
    turns: { full: i, card: 0, packet: 0 },
    markers: { reset: null, packets: i === 1 ? ['pk'] : [], degraded: [], overBudget: false },
    measured: { entryId: `leaf-${i}`, tokens: 120, answeredId: `ask-${i}`, estimated: 118 },
  };
}
