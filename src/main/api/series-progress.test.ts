import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../../generator';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { unpackSeries } from '../../shared/series-packed';
import { fixtureCases } from '../../test-support/fixtures';
import { chainToRoot } from '../core/chain';
import { Ledger } from '../core/ledger';
import { buildTurnIndex } from '../core/turn-index';
import { contextSeriesInSteps } from './context-series';
import { directivesOn, ThrottledProgress, type BuildProgress } from './series-progress';

/** Records what a build says: each `expect` and the steps told after it. */
class Recorded implements BuildProgress {
  readonly said: ({ expect: number } | 'step')[] = [];
  expect(total: number): void {
    this.said.push({ expect: total });
  }
  step(): void {
    this.said.push('step');
  }
  get steps(): number {
    return this.said.filter((s) => s === 'step').length;
  }
}

describe("a series build's progress", () => {
  it('counts the turns of a chain as the turn index does', () => {
    for (const c of fixtureCases()) {
      const l = Ledger.fromBytes(readFileSync(c.file));
      if (l.index.count === 0) continue;
      const chain = chainToRoot(l.index, l.index.activeLeaf);
      expect(directivesOn(l, chain), c.name).toBe(buildTurnIndex(l.index, chain).turns.length);
    }
  });

  it('is told before the first step, a step per turn scanned and per turn end; a kept scan costs no steps', async () => {
    const bytes = generateSession({ seed: 11, entries: 2000, cwd: '/w', branchChance: 0 }).bytes;
    const l = Ledger.fromBytes(bytes);
    const req = { key: 'k', leaf: null, plan: 'auto' as const, profile: DEFAULT_PROFILE };
    const first = new Recorded();
    const series = unpackSeries(
      await contextSeriesInSteps(l, l.index.activeLeaf, req, undefined, { stepMs: 0, progress: first }),
    );
    const turns = directivesOn(l, chainToRoot(l.index, l.index.activeLeaf));
    expect(turns).toBeGreaterThan(20);
    expect(first.said[0]).toEqual({ expect: 2 * turns + 1 });
    expect(first.said.filter((s) => s !== 'step')).toHaveLength(1);
    expect(first.steps).toBe(turns + series.points.length);
    // Within a step or two of what it expected (the leaf's own point, a reset's).
    expect(Math.abs(first.steps - (2 * turns + 1))).toBeLessThanOrEqual(2);

    // Another window: the same chain's scan is kept, only the points are planned again.
    const again = new Recorded();
    const other = { ...req, profile: { ...DEFAULT_PROFILE, window: 50_000 } };
    await contextSeriesInSteps(l, l.index.activeLeaf, other, undefined, { stepMs: 0, progress: again });
    expect(again.said[0]).toEqual({ expect: turns + 1 });
    expect(again.steps).toBe(series.points.length);
  });
});

describe('progress sent no sooner than its first wait, then at most once per interval', () => {
  it('says nothing of a build shorter than the first wait', () => {
    let t = 0;
    const sent: [number, number][] = [];
    const p = new ThrottledProgress(
      (d, n) => sent.push([d, n]),
      () => t,
      300,
      250,
    );
    p.expect(100);
    for (let k = 0; k < 100; k++) {
      t += 2; // 200 ms in all
      p.step();
    }
    expect(sent).toEqual([]);
  });

  it('then at most once per interval, done rising and always below the total', () => {
    let t = 0;
    const sent: { at: number; done: number; total: number }[] = [];
    const p = new ThrottledProgress(
      (done, total) => sent.push({ at: t, done, total }),
      () => t,
      300,
      250,
    );
    p.expect(1000);
    for (let k = 0; k < 1500; k++) {
      t += 1; // past its estimate: 1,500 steps of 1 ms
      p.step();
    }
    expect(sent[0].at).toBe(300);
    for (let k = 1; k < sent.length; k++) {
      expect(sent[k].at - sent[k - 1].at).toBeGreaterThanOrEqual(250);
      expect(sent[k].done).toBeGreaterThan(sent[k - 1].done);
    }
    for (const s of sent) expect(s.done).toBeLessThan(s.total);
    expect(sent.length).toBe(5); // at 300, 550, 800, 1050, 1300 ms
  });
});
