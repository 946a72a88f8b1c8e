import { describe, expect, it } from 'vitest';
import { MAX_SCROLL_PX, scaledLayout, scrollTopFor } from './scaled-rows';

const ROW = 24;
const VIEW = 800;

describe('scaled rows', () => {
  it('a list that fits scrolls 1:1', () => {
    const l = scaledLayout(1000, ROW, VIEW, 240, 0);
    expect(l.height).toBe(24_000);
    expect(l.scale).toBe(1);
    expect(l.first).toBe(10);
    expect(l.topOf(10)).toBe(240);
  });

  it('2M rows: bounded content, both ends reachable, the middle linear', () => {
    const n = 2_000_000;
    const top = scaledLayout(n, ROW, VIEW, 0, 0);
    expect(top.height).toBe(MAX_SCROLL_PX);
    expect(top.first).toBe(0);
    expect(top.topOf(0)).toBe(0);
    const maxTop = MAX_SCROLL_PX - VIEW;
    const end = scaledLayout(n, ROW, VIEW, maxTop, 0);
    expect(end.last).toBe(n - 1);
    // The last row's bottom is the content's bottom: nothing past it, nothing cut.
    expect(end.topOf(n - 1) + ROW).toBeCloseTo(MAX_SCROLL_PX, 6);
    const mid = scaledLayout(n, ROW, VIEW, maxTop / 2, 0);
    expect(Math.abs(mid.first - (n - VIEW / ROW) / 2)).toBeLessThan(2);
    // Rows drawn lie in the viewport of the real scroll position.
    expect(mid.topOf(mid.first)).toBeLessThanOrEqual(maxTop / 2);
    expect(mid.topOf(mid.first) + ROW).toBeGreaterThan(maxTop / 2);
  });

  it('scrolls to any row of 2M so that it is drawn in view', () => {
    const n = 2_000_000;
    for (const i of [0, 1, 999_999, 1_500_000, n - 1]) {
      const t = scrollTopFor(i, 'center', n, ROW, VIEW, 0);
      expect(t).not.toBeNull();
      const l = scaledLayout(n, ROW, VIEW, t ?? 0, 0);
      expect(i).toBeGreaterThanOrEqual(l.first);
      expect(i).toBeLessThanOrEqual(l.last);
      const y = l.topOf(i) - (t ?? 0);
      expect(y).toBeGreaterThanOrEqual(-ROW);
      expect(y).toBeLessThan(VIEW);
    }
    // `auto` leaves a row in view alone.
    expect(scrollTopFor(5, 'auto', n, ROW, VIEW, 0)).toBeNull();
  });
});
