/**
 * The context series as a delta: whatever series the client held (another branch, an earlier or
 * later leaf, another plan, before an append), the series it puts together from the answer equals
 * the whole series asked afresh, and the answer keeps every point before the fork.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContextSeries, ContextSeriesDeltaRequest } from '../../shared/api-series';
import type { CapacityProfile } from '../../shared/ledger-types';
import { heldOf, keptPoints, wholeSeries, withHeld } from '../../shared/series-delta';
import { packSeries, unpackSeries } from '../../shared/series-packed';
import { generateSession } from '../../generator';
import { fixtureCases } from '../../test-support/fixtures';
import { chainToRoot } from '../core/chain';
import { Ledger } from '../core/ledger';
import { contextSeries, contextSeriesInSteps } from './context-series';

const fixtures = fixtureCases()
  .filter((c) => c.name !== 'missing-header')
  .map((c) => ({ name: c.name, ledger: Ledger.fromBytes(readFileSync(c.file)) }));
const generated = [3, 11, 29].map((seed) => ({
  name: `generated seed ${seed}`,
  ledger: Ledger.fromBytes(generateSession({ seed, entries: 500, cwd: '/w', branchChance: 0.15 }).bytes),
}));

const PROFILES: CapacityProfile[] = [
  { window: 200_000, reserve: 1000, bytes_per_token: 4 },
  { window: 400, reserve: 50, bytes_per_token: 4 },
];

/** Without the work counts: they say what was computed (a kept scan or not), not what was drawn. */
const drawn = (s: ContextSeries) => ({ ...s, work: null });

/**
 * The leaves a user clicks: the active one, the tree's leaves and entries along the chains (at most
 * `max`, spread over the file: each ordered pair of them is asked).
 */
function leavesOf(ledger: Ledger, every: number, max = 12): number[] {
  const ix = ledger.index;
  const all = new Set<number>();
  for (let i = 0; i < ix.count; i++) if (ix.childCount[i] === 0 || i % every === 0) all.add(i);
  const list = [...all];
  const picked = list.length <= max ? list : list.filter((_, k) => k % Math.ceil(list.length / max) === 0);
  return [...new Set([ix.activeLeaf, ...picked])].filter((i) => i >= 0);
}

/** Asks for `leaf` holding `held`; checks the assembled series against the whole one; returns the answer. */
function step(ledger: Ledger, leaf: number, req: Omit<ContextSeriesDeltaRequest, 'leaf'>, held: ContextSeries | null) {
  const full = contextSeries(ledger, leaf, { ...req, leaf: null });
  const answer = contextSeries(ledger, leaf, { ...req, leaf: null, held: heldOf(held) });
  expect(answer.points.length + answer.kept).toBe(full.points.length);
  // Through the wire as the page gets it: packed, as JSON text, unpacked.
  const assembled = withHeld(held, unpackSeries(JSON.parse(JSON.stringify(packSeries(answer)))));
  expect(drawn(assembled)).toEqual(drawn(full));
  return { answer, assembled, full };
}

describe('context series as a delta', () => {
  it('the series assembled from any held series equals the whole one (fixtures and generated ledgers, clicks across branches)', () => {
    let kept = 0;
    let sent = 0;
    for (const { ledger } of [...fixtures, ...generated]) {
      const leaves = leavesOf(ledger, ledger.index.count > 100 ? 37 : 3);
      for (const profile of PROFILES) {
        for (const plan of ['none', 'auto'] as const) {
          const req = { key: 'k', plan, profile, overrides: {} };
          // Every ordered pair: a click from any drawn leaf to any other (earlier, later, another branch).
          const series = leaves.map((l) => contextSeries(ledger, l, { ...req, leaf: null }));
          for (let a = 0; a < leaves.length; a++) {
            for (let b = 0; b < leaves.length; b++) {
              const { answer } = step(ledger, leaves[b], req, series[a]);
              kept += answer.kept;
              sent += answer.points.length;
              // The answer keeps exactly the points before the fork (the rule itself is checked above).
              const ca = chainToRoot(ledger.index, leaves[a]);
              const cb = chainToRoot(ledger.index, leaves[b]);
              const positions = series[b].points.map((p) => p.pos);
              expect(answer.kept).toBe(keptPoints(cb, ca, positions, series[a].points.length));
            }
          }
        }
      }
    }
    // Most points stay: a delta that kept nothing would pass the equality above trivially.
    expect(kept).toBeGreaterThan(sent);
  });

  it('a series extended by a later leaf keeps every point but the held leaf’s own', () => {
    const { ledger } = generated[0];
    const chain = chainToRoot(ledger.index, ledger.index.activeLeaf);
    const req = { key: 'k', plan: 'auto' as const, profile: PROFILES[0], overrides: {} };
    const early = contextSeries(ledger, chain[Math.floor(chain.length / 2)], { ...req, leaf: null });
    const { answer, full } = step(ledger, ledger.index.activeLeaf, req, early);
    expect(answer.kept).toBe(early.points.length - 1);
    expect(answer.points.length).toBe(full.points.length - early.points.length + 1);
  });

  it('another plan, profile or override set keeps nothing', () => {
    const { ledger } = generated[1];
    const leaf = ledger.index.activeLeaf;
    const base = { key: 'k', plan: 'none' as const, profile: PROFILES[0], overrides: {} };
    const held = contextSeries(ledger, leaf, { ...base, leaf: null });
    const turnId = held.points.find((p) => p.turnId)!.turnId!;
    for (const req of [
      { ...base, plan: 'auto' as const },
      { ...base, profile: { ...PROFILES[0], window: 150_000 } },
      { ...base, profile: { ...PROFILES[0], bytes_per_token: 3 } },
      { ...base, overrides: { [turnId]: 'card' as const } },
    ]) {
      expect(step(ledger, leaf, req, held).answer.kept).toBe(0);
    }
    // The same request again keeps all but the leaf's own point.
    expect(step(ledger, leaf, base, held).answer.kept).toBe(held.points.length - 1);
  });

  it('a long series comes in pages under their byte budget, each a slice of one build, adding up to the whole', async () => {
    const ledger = Ledger.fromBytes(generateSession({ seed: 17, entries: 1500, cwd: '/w', branchChance: 0.1 }).bytes);
    const ix = ledger.index;
    const req = { key: 'k', leaf: null, plan: 'auto' as const, profile: PROFILES[1], overrides: {} };
    const pageBytes = 8192;
    for (const leaf of [ix.activeLeaf, ...leavesOf(ledger, 97, 3)]) {
      const whole = contextSeries(ledger, leaf, req);
      expect(whole.rest).toBe(0);
      // From nothing held, and from the whole series of another leaf (a click elsewhere).
      for (const held of [null, contextSeries(ledger, ix.activeLeaf === leaf ? 0 : ix.activeLeaf, req)]) {
        const pages: ContextSeries[] = [];
        const assembled = await wholeSeries(held, async (named) => {
          const answer = contextSeries(ledger, leaf, { ...req, held: named }, pageBytes);
          pages.push(answer);
          return unpackSeries(JSON.parse(JSON.stringify(packSeries(answer))));
        });
        expect(drawn(assembled)).toEqual(drawn(whole));
        if (held === null && leaf === ix.activeLeaf) expect(pages.length).toBeGreaterThan(3);
        for (const page of pages) {
          expect(page.rest + page.kept + page.points.length).toBe(whole.points.length);
          if (page.points.length > 1)
            expect(JSON.stringify(packSeries(page).points).length).toBeLessThanOrEqual(pageBytes);
        }
        // After the first, every page is a slice of the points built for it: none built again.
        expect(pages.slice(1).every((p) => p.work.points === 0 && !p.work.scanned)).toBe(true);
      }
    }
  });

  it('a client holding the first points of a series keeps those it holds', () => {
    const { ledger } = generated[2];
    const req = { key: 'k', leaf: null, plan: 'auto' as const, profile: PROFILES[1], overrides: {} };
    const held = contextSeries(ledger, ledger.index.activeLeaf, req);
    for (const points of [1, Math.floor(held.points.length / 2)]) {
      const answer = contextSeries(ledger, ledger.index.activeLeaf, { ...req, held: { ...heldOf(held)!, points } });
      expect(answer.kept).toBe(points);
      const mine = { ...held, points: held.points.slice(0, points) };
      expect(drawn(withHeld(mine, answer))).toEqual(drawn(held));
    }
  });

  it('a held series of another reading, another process or an unknown leaf keeps nothing', () => {
    const bytes = generateSession({ seed: 5, entries: 300, cwd: '/w', branchChance: 0.1 }).bytes;
    const one = Ledger.fromBytes(bytes);
    const two = Ledger.fromBytes(bytes);
    const req = { key: 'k', leaf: null, plan: 'auto' as const, profile: PROFILES[0], overrides: {} };
    const held = contextSeries(one, one.index.activeLeaf, req);
    expect(step(two, two.index.activeLeaf, req, held).answer.kept).toBe(0);
    const named = heldOf(held)!;
    for (const wrong of [
      { ...named, basis: `other.${named.basis}` },
      { ...named, leaf: 'no-such-entry' },
    ]) {
      expect(contextSeries(one, one.index.activeLeaf, { ...req, held: wrong }).kept).toBe(0);
    }
  });

  describe('across an append', () => {
    const dir = mkdtempSync(join(tmpdir(), 'series-delta-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('the series held before an append stands for its points after it', async () => {
      const bytes = generateSession({ seed: 13, entries: 600, cwd: '/w', branchChance: 0.1 }).bytes;
      const text = bytes.toString('utf8');
      // Cut at a line end about two thirds in: the rest is appended later.
      const cut = text.indexOf('\n', Math.floor(text.length * 0.66)) + 1;
      const file = join(dir, 's.jsonl');
      writeFileSync(file, text.slice(0, cut));
      const ledger = await Ledger.open(file);
      const req = { key: 'k', leaf: null, plan: 'auto' as const, profile: PROFILES[1], overrides: {} };
      const before = unpackSeries(await contextSeriesInSteps(ledger, ledger.index.activeLeaf, req));
      const generation = ledger.generation;
      appendFileSync(file, text.slice(cut));
      const r = await ledger.refresh();
      expect(r.kind).toBe('appended');
      expect(ledger.generation).toBe(generation);
      let kept = 0;
      for (const leaf of leavesOf(ledger, 41)) {
        const { answer } = step(ledger, leaf, req, before);
        kept += answer.kept;
      }
      expect(kept).toBeGreaterThan(0);
    });
  });
});
