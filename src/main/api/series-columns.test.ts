/**
 * A built series kept as columns gives back every point exactly as it was pushed, field for
 * field, and a page of it packs as the same points as objects would. (That the points themselves
 * are right, built through these columns, is context-series.test.ts: each equals the projection.)
 */
import { describe, expect, it } from 'vitest';
import type { ContextPoint } from '../../shared/api-series';
import { packPoints } from '../../shared/series-packed';
import { PointColumns } from './series-columns';

/** Point i, every field different from every other field, the marker lists and nulls varying with i. */
function pointAt(i: number): ContextPoint {
  const big = 2 ** 40 + i; // past 32 bits: the columns keep any safe integer
  return {
    leaf: `leaf-${i}`,
    pos: 3 * i + 1,
    ts: i % 4 === 3 ? `not a time ${i}` : new Date(Date.UTC(2026, 0, 2, 3, 4, i)).toISOString(),
    turnId: i % 5 === 0 ? null : `turn-${i}`,
    parts: {
      system: 11 + i,
      tools: 12 + i,
      full: 13 + i,
      card: 14 + i,
      packet: 15 + i,
      reset: 16 + i,
      preamble: 17 + i,
      tail: 18 + i,
      open: 19 + i,
    },
    total: big,
    available: -(20 + i),
    overBudget: i % 2 === 0 ? 0 : 21 + i,
    turns: { full: 22 + i, card: 23 + i, packet: 24 + i },
    markers: {
      reset: i % 3 === 1 ? `reset-${i}` : null,
      packets: Array.from({ length: i % 3 }, (_, k) => `packet-${i}-${k}`),
      degraded: Array.from({ length: (i + 1) % 4 }, (_, k) => `degraded-${i}-${k}`),
      overBudget: i % 2 === 1,
    },
    measured:
      i % 3 === 2 ? null : { entryId: `answer-${i}`, tokens: 25 + i, answeredId: `asked-${i}`, estimated: 26 + i },
  };
}

describe('a built series kept as columns', () => {
  const points = Array.from({ length: 300 }, (_, i) => pointAt(i));
  const cols = new PointColumns();
  points.forEach((p, i) => cols.push(p, 1000 + i));

  it('gives back each point as it was pushed, with its position and its size as given', () => {
    expect(cols.length).toBe(points.length);
    for (let i = 0; i < points.length; i++) {
      expect(cols.point(i)).toStrictEqual(points[i]);
      expect(cols.pos(i)).toBe(points[i].pos);
      expect(cols.bytes(i)).toBe(1000 + i);
    }
    expect([...cols.positions()]).toEqual(points.map((p) => p.pos));
  });

  it('packs a page as the same points as objects would pack', () => {
    for (const [from, to] of [
      [0, 300],
      [0, 1],
      [17, 140],
      [299, 300],
      [120, 120],
      [250, 999],
    ]) {
      const page = cols.page(from, to);
      const want = points.slice(from, to);
      expect(page.length).toBe(want.length);
      expect(packPoints(page)).toStrictEqual(packPoints(want));
    }
  });

  it('refuses a point it does not hold', () => {
    for (const i of [-1, 300, 1.5, Number.NaN]) expect(() => cols.point(i)).toThrow(RangeError);
  });
});
