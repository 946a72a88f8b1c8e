import { describe, expect, it } from 'vitest';
import type { PlanRow } from './ledger-types';
import { mergeSegments, planStrip as stripOfRows, turnAt } from './plan-strip';
import { planRowsOf } from './plan-rows';

const planStrip = (rows: readonly PlanRow[], isOverridden: (id: string) => boolean, max: number) =>
  stripOfRows(planRowsOf(rows), isOverridden, max);

const plan = (n: number, fid: (i: number) => PlanRow['fidelity'] = () => 'full'): PlanRow[] =>
  Array.from({ length: n }, (_, i) => ({ turn_id: `t${i}`, fidelity: fid(i), packet_id: null, tokens: 100 + (i % 7) }));

describe('plan strip segments', () => {
  it('3,798 alternating turns fit a 600 px strip: at most one segment per 4 px, every turn in one', () => {
    const p = plan(3798, (i) => (i % 3 === 0 ? 'card' : 'full'));
    const segs = planStrip(p, () => false, 600 / 4);
    expect(segs.length).toBeLessThanOrEqual(150);
    expect(segs.reduce((n, s) => n + s.count, 0)).toBe(3798);
    expect(segs.reduce((n, s) => n + s.tokens, 0)).toBe(p.reduce((n, r) => n + r.tokens, 0));
    // Contiguous and in order, each named by its first turn.
    segs.forEach((s, k) => {
      expect(s.first).toBe(k === 0 ? 0 : segs[k - 1].first + segs[k - 1].count);
      expect(s.firstTurnId).toBe(`t${s.first}`);
    });
    expect(segs.some((s) => s.mixed)).toBe(true);
  });

  it('runs of one fidelity merge without loss; an override stays its own segment', () => {
    const p = plan(10, (i) => (i < 6 ? 'full' : 'card'));
    const segs = planStrip(p, (id) => id === 't2', 100);
    expect(segs.map((s) => [s.first, s.count, s.fidelity, s.overridden, s.mixed])).toEqual([
      [0, 2, 'full', false, false],
      [2, 1, 'full', true, false],
      [3, 3, 'full', false, false],
      [6, 4, 'card', false, false],
    ]);
  });

  it('a strip merged again (the renderer, to its width) keeps every turn and token, in order', () => {
    const p = plan(3798, (i) => (i % 5 === 0 ? 'card' : i % 11 === 0 ? 'packet' : 'full'));
    const wide = planStrip(p, (id) => id === 't7', 256);
    expect(wide.length).toBeLessThanOrEqual(256);
    const narrow = mergeSegments(wide, 50);
    expect(narrow.length).toBeLessThanOrEqual(50);
    expect(narrow.reduce((n, s) => n + s.count, 0)).toBe(3798);
    expect(narrow.reduce((n, s) => n + s.tokens, 0)).toBe(p.reduce((n, r) => n + r.tokens, 0));
    narrow.forEach((s, k) => expect(s.first).toBe(k === 0 ? 0 : narrow[k - 1].first + narrow[k - 1].count));
    expect(narrow.filter((s) => s.overridden)).toHaveLength(1);
    // The input is the view's data: never changed in place.
    expect(wide.reduce((n, s) => n + s.count, 0)).toBe(3798);
  });

  it('finds the turn under the pointer by tokens', () => {
    const p: PlanRow[] = [
      { turn_id: 'a', fidelity: 'full', packet_id: null, tokens: 900 },
      { turn_id: 'b', fidelity: 'full', packet_id: null, tokens: 100 },
    ];
    const [seg] = planStrip(p, () => false, 10);
    expect(seg.count).toBe(2);
    expect(turnAt(seg, 0.5, (i) => p[i].tokens)).toBe(0);
    expect(turnAt(seg, 0.95, (i) => p[i].tokens)).toBe(1);
  });
});
