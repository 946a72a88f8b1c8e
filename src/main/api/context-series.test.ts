import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ContextParts, ContextPoint } from '../../shared/api-series';
import type { CapacityProfile, Projection, TurnOverride } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { fixtureCases } from '../../test-support/fixtures';
import { Ledger } from '../core/ledger';
import { chainToRoot } from '../core/chain';
import { project } from '../core/projection';
import { WorkCancelled } from '../core/cancel';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { contextSeries, contextSeriesInSteps } from './context-series';
import { unpackSeries } from '../../shared/series-packed';

const fixtures = fixtureCases()
  .filter((c) => c.name !== 'missing-header')
  .map((c) => ({ name: c.name, ledger: Ledger.fromBytes(readFileSync(c.file)) }));
const generated = Ledger.fromBytes(generateSession({ seed: 7, entries: 1500, cwd: '/w', branchChance: 0 }).bytes);

/** The parts a projection adds up to, by fidelity (what every series point must equal). */
function partsOf(
  ledger: Ledger,
  leaf: number,
  plan: 'none' | 'auto',
  profile: CapacityProfile,
  overrides = new Map<string, TurnOverride>(),
) {
  const p = project(ledger, leaf, { plan, profile, overrides });
  const parts: ContextParts = {
    system: p.tokens.system,
    tools: p.tokens.tools,
    full: 0,
    card: 0,
    packet: 0,
    reset: 0,
    preamble: 0,
    tail: 0,
    open: 0,
  };
  for (const m of p.messages) parts[m.fidelity] += m.tokens;
  return { parts, p };
}

/**
 * A point's markers from the projections at it and at the point before: the reset that starts to
 * apply, and within one reset's turns the packets newly used and the turns moved from Full (or not
 * yet closed) to Card.
 */
function markersBetween(before: Projection | null, at: Projection): ContextPoint['markers'] {
  const resetOf = (p: Projection): string | null =>
    p.messages.find((m) => m.fidelity === 'reset')?.source_ids[0] ?? null;
  const reset = resetOf(at);
  const prev = before !== null && resetOf(before) === reset ? before : null;
  const fidelityBefore = new Map(prev?.plan.map((r) => [r.turn_id, r.fidelity]));
  const packetsBefore = new Set(prev?.plan.map((r) => r.packet_id));
  const packets = [...new Set(at.plan.map((r) => r.packet_id))].filter((id) => id !== null && !packetsBefore.has(id));
  const degraded = at.plan
    .filter((r) => r.fidelity === 'card' && (fidelityBefore.get(r.turn_id) ?? 'full') === 'full')
    .map((r) => r.turn_id);
  return {
    reset: prev === null ? reset : null,
    packets: packets as string[],
    degraded: prev === null ? [] : degraded,
    overBudget: at.over_budget > 0,
  };
}

function expectSeriesMatchesProjection(
  ledger: Ledger,
  leaf: number,
  plan: 'none' | 'auto',
  profile: CapacityProfile,
  overrides: Record<string, TurnOverride> = {},
): number {
  const s = contextSeries(ledger, leaf, { key: 'k', leaf: null, plan, profile, overrides });
  expect(s.points.length).toBeGreaterThan(0);
  expect(s.points[s.points.length - 1].leaf).toBe(ledger.index.ids[leaf]);
  let before: Projection | null = null;
  for (const pt of s.points) {
    const i = ledger.indexOf(pt.leaf)!;
    const { parts, p } = partsOf(ledger, i, plan, profile, new Map(Object.entries(overrides)));
    expect({ leaf: pt.leaf, markers: pt.markers }).toEqual({ leaf: pt.leaf, markers: markersBetween(before, p) });
    before = p;
    expect({ leaf: pt.leaf, parts: pt.parts }).toEqual({ leaf: pt.leaf, parts });
    expect(pt.total).toBe(p.tokens.total);
    expect(pt.available).toBe(p.tokens.available);
    expect(pt.overBudget).toBe(p.over_budget);
    const count = (f: string): number => p.plan.filter((r) => r.fidelity === f).length;
    expect(pt.turns).toEqual({ full: count('full'), card: count('card'), packet: count('packet') });
    if (pt.measured) {
      const at = ledger.indexOf(pt.measured.answeredId)!;
      expect(pt.measured.estimated).toBe(
        partsOf(ledger, at, plan, profile, new Map(Object.entries(overrides))).p.tokens.total,
      );
      expect(ledger.index.parent[ledger.indexOf(pt.measured.entryId)!]).toBe(at);
    }
  }
  return s.points.length;
}

describe('context series', () => {
  it('every point of every fixture equals the core projection at that leaf (both plans, tight windows)', () => {
    for (const { name, ledger } of fixtures) {
      for (const leaf of [
        ledger.index.activeLeaf,
        ...ledger.index.ids.map((_, i) => i).filter((i) => ledger.index.childCount[i] === 0),
      ]) {
        for (const window of [200000, 400, 150]) {
          for (const plan of ['none', 'auto'] as const) {
            try {
              expectSeriesMatchesProjection(ledger, leaf, plan, { window, reserve: 10, bytes_per_token: 4 });
            } catch (e) {
              throw new Error(
                `${name} leaf ${ledger.index.ids[leaf]} ${plan} window ${window}: ${(e as Error).message}`,
                { cause: e },
              );
            }
          }
        }
      }
    }
  });

  it('a generated chain with cards, packets and resets: every point equals the core projection', () => {
    const leaf = generated.index.activeLeaf;
    for (const window of [200000, 6000]) {
      const n = expectSeriesMatchesProjection(generated, leaf, 'auto', { window, reserve: 2000, bytes_per_token: 4 });
      expect(n).toBeGreaterThan(100);
    }
  });

  it('with overrides, every point still equals the core projection', () => {
    const leaf = generated.index.activeLeaf;
    const first = contextSeries(generated, leaf, {
      key: 'k',
      leaf: null,
      plan: 'auto',
      profile: { window: 30000, reserve: 0, bytes_per_token: 4 },
    });
    const turn = first.points.find((p) => p.turnId !== null && p.turns.full > 3)!;
    const overrides: Record<string, TurnOverride> = { [turn.turnId!]: { fidelity: 'card' } };
    expectSeriesMatchesProjection(
      generated,
      leaf,
      'auto',
      { window: 30000, reserve: 0, bytes_per_token: 4 },
      overrides,
    );
    const s = contextSeries(generated, leaf, {
      key: 'k',
      leaf: null,
      plan: 'auto',
      profile: { window: 30000, reserve: 0, bytes_per_token: 4 },
      overrides,
    });
    expect(s.work.projections).toBe(0);
  });

  it('projects once per reset segment, not once per point (counted work)', () => {
    const s = contextSeries(generated, generated.index.activeLeaf, {
      key: 'k',
      leaf: null,
      plan: 'auto',
      profile: { window: 30000, reserve: 0, bytes_per_token: 4 },
    });
    const resets = s.points.filter((p) => p.markers.reset !== null).length;
    expect(s.points.length).toBeGreaterThan(100);
    expect(s.work.projections).toBeLessThanOrEqual(resets + 1);
  });

  it('parses each entry of the chain once for its scan, not again for its cost as recorded (counted work)', () => {
    const l = Ledger.fromBytes(generateSession({ seed: 8, entries: 1200, cwd: '/w', branchChance: 0 }).bytes);
    const leaf = l.index.activeLeaf;
    const before = l.stats.entriesMaterialised;
    const s = contextSeries(l, leaf, { key: 'k', leaf: null, plan: 'auto', profile: DEFAULT_PROFILE });
    const parsed = l.stats.entriesMaterialised - before;
    const chain = chainToRoot(l.index, leaf).length;
    // Each chain entry once for the scan (a few twice, skimmed then whole), and the time of each
    // point and of its measured input's answer; reading each entry again made it twice the chain.
    expect(s.points.length).toBeGreaterThan(50);
    expect(parsed).toBeLessThan(chain * 1.1 + 2 * s.points.length);
  });

  it('markers: resets, packets and Full → Card degradations where the plan changes', () => {
    const s = contextSeries(generated, generated.index.activeLeaf, {
      key: 'k',
      leaf: null,
      plan: 'auto',
      profile: { window: 6000, reserve: 0, bytes_per_token: 4 },
    });
    expect(s.points.some((p) => p.markers.reset)).toBe(true);
    expect(s.points.some((p) => p.markers.packets.length > 0)).toBe(true);
    expect(s.points.some((p) => p.markers.degraded.length > 0)).toBe(true);
    for (let k = 1; k < s.points.length; k++) {
      for (const id of s.points[k].markers.degraded)
        expect(s.points[k].turnId === id || s.points.slice(0, k).some((p) => p.turnId === id)).toBe(true);
    }
    const none = contextSeries(generated, generated.index.activeLeaf, {
      key: 'k',
      leaf: null,
      plan: 'none',
      profile: { window: 6000, reserve: 0, bytes_per_token: 4 },
    });
    expect(none.points.every((p) => p.markers.degraded.length === 0 && p.markers.packets.length === 0)).toBe(true);
    expect(none.points.some((p) => p.markers.overBudget)).toBe(true);
  });

  it('fits the bytes per token to the measured inputs', () => {
    // At 8 bytes per token the estimate is far below the generator's usage figures; the fit says so.
    const s = contextSeries(generated, generated.index.activeLeaf, {
      key: 'k',
      leaf: null,
      plan: 'auto',
      profile: { window: 200000, reserve: 0, bytes_per_token: 8 },
    });
    const measured = s.points.filter((p) => p.measured);
    expect(measured.length).toBeGreaterThan(50);
    expect(s.fit.points).toBe(measured.length);
    expect(s.fit.bytesPerToken).not.toBeNull();
    expect(s.fit.suggested).toBeLessThan(8);
    expect(s.fit.meanRelErrorSuggested!).toBeLessThan(s.fit.meanRelErrorCurrent!);
    for (const p of measured) {
      const u = generated.index.usage;
      const i = generated.indexOf(p.measured!.entryId)!;
      expect(p.measured!.tokens).toBe(u[i * 4] + u[i * 4 + 2] + u[i * 4 + 3]);
    }
  });
});

describe('a series in steps (other requests answer meanwhile, a superseded one is cancelled)', () => {
  const bytes = generateSession({ seed: 8, entries: 1200, cwd: '/w', branchChance: 0 }).bytes;
  const req = { key: 'k', leaf: null, plan: 'auto', profile: DEFAULT_PROFILE } as const;
  /** Turns of the event loop while `p` runs (each a chance for another request). */
  async function turnsWhile<T>(p: () => Promise<T>): Promise<{ value: T; turns: number }> {
    let turns = 0;
    let on = true;
    const tick = (): void => {
      if (!on) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    try {
      return { value: await p(), turns };
    } finally {
      on = false;
    }
  }

  it('is the series built at once, with a turn of the event loop after each step', async () => {
    const l = Ledger.fromBytes(bytes);
    const { value, turns } = await turnsWhile(() =>
      contextSeriesInSteps(l, l.index.activeLeaf, req, undefined, { stepMs: 0 }).then(unpackSeries),
    );
    const atOnce = Ledger.fromBytes(bytes);
    // (Another ledger object is another reading: only the basis differs.)
    expect({ ...value, basis: '' }).toEqual({ ...contextSeries(atOnce, atOnce.index.activeLeaf, req), basis: '' });
    expect(value.points.length).toBeGreaterThan(50);
    // A pause after each turn of the scan and each point (steps of 0 ms): at least one turn each.
    expect(turns).toBeGreaterThanOrEqual(2 * value.points.length - 1);
  });

  it('stops at its next step once its signal aborts, and keeps no half scan', async () => {
    const l = Ledger.fromBytes(bytes);
    const signal = { aborted: false };
    setImmediate(() => setImmediate(() => (signal.aborted = true)));
    await expect(contextSeriesInSteps(l, l.index.activeLeaf, req, signal, { stepMs: 0 })).rejects.toThrow(
      WorkCancelled,
    );
    const again = unpackSeries(await contextSeriesInSteps(l, l.index.activeLeaf, req, undefined, { stepMs: 0 }));
    expect(again.work.scanned).toBe(true);
    const atOnce = Ledger.fromBytes(bytes);
    expect({ ...again, basis: '' }).toEqual({ ...contextSeries(atOnce, atOnce.index.activeLeaf, req), basis: '' });
  });

  it('builds series of one ledger one at a time: the second asked reuses the first one’s scan', async () => {
    const l = Ledger.fromBytes(bytes);
    const [a, b] = await Promise.all([
      contextSeriesInSteps(l, l.index.activeLeaf, req, undefined, { stepMs: 0 }),
      contextSeriesInSteps(l, l.index.activeLeaf, { ...req, plan: 'none' }, undefined, { stepMs: 0 }),
    ]);
    expect([a.work.scanned, b.work.scanned]).toEqual([true, false]);
  });
});
