import { describe, expect, it } from 'vitest';
import { LANE_WIDTH, laneGeometry, shownThrough } from './lane-graph';

describe('lane geometry', () => {
  it('keeps full-width lanes for a few branches', () => {
    expect(laneGeometry(1)).toEqual({ width: LANE_WIDTH, max: 16 });
    expect(laneGeometry(16)).toEqual({ width: LANE_WIDTH, max: 16 });
  });
  it('narrows lanes so up to 48 stay apart, then shares the last column', () => {
    expect(laneGeometry(24)).toEqual({ width: 8, max: 24 });
    expect(laneGeometry(48)).toEqual({ width: 4, max: 48 });
    expect(laneGeometry(100)).toEqual({ width: 4, max: 48 });
  });
});

describe('lanes passing through a row', () => {
  it('draws every lane that has its own column, and the shared last column once', () => {
    const { max } = laneGeometry(500);
    const through = Array.from({ length: 500 }, (_, l) => 499 - l);
    const shown = shownThrough(through, max);
    expect(shown).toHaveLength(max);
    expect(new Set(shown.map((l) => Math.min(l, max - 1))).size).toBe(max);
    expect(shownThrough([0, 3, 9], 16)).toEqual([0, 3, 9]);
  });
});
