import { describe, expect, it } from 'vitest';
import { AnchoredRows } from './anchored-rows';
import { MAX_SCROLL_PX, scaledLayout } from './scaled-rows';

const N = 2_000_000;
const VIEW = 800;

/** Where row `i`'s top sits in the viewport (walking from the anchor with the model's heights). */
function yOf(m: AnchoredRows, i: number): number {
  let y = m.o;
  if (i >= m.a) for (let k = m.a; k < i; k++) y += m.h(k);
  else for (let k = m.a - 1; k >= i; k--) y -= m.h(k);
  return y;
}

/** A height per row as a renderer would measure it: 20–300 px, the same for the same row. */
const heightOf = (i: number): number => 20 + ((i * 7919) % 281);

/** Measures every drawn row (what the layout effect does after a render). */
function measureDrawn(m: AnchoredRows): void {
  const [f, l] = m.drawRange(300);
  for (let i = f; i <= l; i++) m.measured(i, heightOf(i));
}

describe('a scaled list of measured rows at 2M rows', () => {
  it('opens at the end: the last row at the viewport bottom, the scroll position at its end, content bounded', () => {
    const m = new AnchoredRows(N, 96, VIEW);
    expect(m.height).toBe(MAX_SCROLL_PX);
    m.toEnd();
    expect(m.visible()[1]).toBe(N - 1);
    expect(yOf(m, N - 1) + m.h(N - 1)).toBe(VIEW);
    expect(m.toScroll()).toBe(MAX_SCROLL_PX - VIEW);
    expect(m.drawRange(0)[1]).toBe(N - 1);
    // Measured heights under the estimate leave no gap below the last row.
    for (let i = N - 100; i < N; i++) m.measured(i, 30);
    m.toEnd();
    expect(yOf(m, N - 1) + 30).toBe(VIEW);
    expect(m.atEnd()).toBe(true);
  });

  it('the scrollbar reaches the first, the middle and the last row (linear, as the tree)', () => {
    const m = new AnchoredRows(N, 28, VIEW);
    m.fromScroll(0);
    expect(m.visible()[0]).toBe(0);
    expect(yOf(m, 0)).toBe(0);
    m.fromScroll((MAX_SCROLL_PX - VIEW) / 2);
    const [first, last] = m.visible();
    expect(Math.abs(first - (N - VIEW / 28) / 2)).toBeLessThan(2);
    expect(last - first).toBeLessThan(VIEW / 28 + 2);
    m.fromScroll(MAX_SCROLL_PX - VIEW);
    expect(m.visible()[1]).toBe(N - 1);
    expect(m.atEnd()).toBe(true);
  });

  it('maps a scroll position to the same top row as the tree does for rows of one height', () => {
    const m = new AnchoredRows(N, 24, VIEW);
    for (const s of [0, 1, 12_345, 3_999_600, 7_000_000, MAX_SCROLL_PX - VIEW - 2]) {
      m.fromScroll(s);
      const tree = scaledLayout(N, 24, VIEW, s, 0);
      expect(Math.abs(m.visible()[0] - tree.first)).toBeLessThanOrEqual(1);
      // And back: the position the anchor maps to is the one it came from.
      expect(Math.abs(m.toScroll() - s)).toBeLessThan(0.01);
    }
  });

  it('a wheel moves by pixels: every row passes through the viewport, both ways, and the ends hold', () => {
    const m = new AnchoredRows(N, 96, VIEW);
    m.fromScroll(4_000_000);
    const seen = new Set<number>();
    const start = m.visible()[0];
    for (let k = 0; k < 2000; k++) {
      measureDrawn(m);
      const [f, l] = m.visible();
      for (let i = f; i <= l; i++) seen.add(i);
      m.moveBy(40);
    }
    const end = m.visible()[0];
    expect(end - start).toBeGreaterThan(200);
    for (let i = start; i <= end; i++) expect(seen.has(i)).toBe(true);
    // Up past the top: row 0 stops at the top; down past the end: the last row stops at the bottom.
    m.toIndex(3, 'start');
    for (let k = 0; k < 40; k++) m.moveBy(-100);
    expect(yOf(m, 0)).toBe(0);
    expect(m.toScroll()).toBe(0);
    m.toIndex(N - 5, 'start');
    for (let k = 0; k < 40; k++) m.moveBy(100);
    expect(m.atEnd()).toBe(true);
    expect(m.toScroll()).toBe(m.maxScroll);
  });

  it('scrolls to any row, and the row stays put while the rows around it are measured (no jitter)', () => {
    const m = new AnchoredRows(N, 96, VIEW);
    m.toEnd();
    for (const i of [0, 1, 999_999, 1_234_567, N - 1]) {
      expect(m.toIndex(i, 'center')).toBe(true);
      const before = yOf(m, i);
      expect(m.visible()[0]).toBeLessThanOrEqual(i);
      expect(m.visible()[1]).toBeGreaterThanOrEqual(i);
      // Pages land and rows are measured around it: it does not move (the ends excepted, where it is clamped in).
      measureDrawn(m);
      measureDrawn(m);
      const after = yOf(m, i);
      if (i > 10 && i < N - 10) expect(after).toBe(before);
      expect(after).toBeGreaterThanOrEqual(0);
      expect(after + m.h(i)).toBeLessThanOrEqual(VIEW);
      // `auto` leaves a row in view alone.
      expect(m.toIndex(i, 'auto')).toBe(false);
    }
  });

  it('a height measured late above the viewport moves nothing on screen', () => {
    const m = new AnchoredRows(N, 96, VIEW);
    m.fromScroll(5_000_000);
    measureDrawn(m);
    const [first] = m.visible();
    const y = yOf(m, first + 2);
    m.measured(first - 1, 900);
    m.measured(first - 3, 12);
    expect(yOf(m, first + 2)).toBe(y);
    expect(m.visible()[0]).toBe(first);
  });

  it('content above the list (the system prompt) scrolls 1:1 before the first row', () => {
    const m = new AnchoredRows(N, 96, VIEW);
    m.margin = 300;
    m.fromScroll(100);
    expect([m.a, m.o]).toEqual([0, 200]);
    expect(m.toScroll()).toBe(100);
    m.moveBy(-1000);
    expect(yOf(m, 0)).toBe(300);
    expect(m.toScroll()).toBe(0);
    m.moveBy(350);
    expect(yOf(m, 0)).toBe(-50);
    // Just past the header the mapping is continuous: a few pixels, not a jump.
    expect(m.toScroll()).toBeGreaterThan(300);
    expect(m.toScroll()).toBeLessThan(310);
    expect(m.maxScroll).toBe(300 + MAX_SCROLL_PX - VIEW);
  });

  it('draws a bounded window around the viewport', () => {
    const m = new AnchoredRows(N, 28, VIEW);
    m.fromScroll(2_000_000);
    const [f, l] = m.drawRange(336);
    const [vf, vl] = m.visible();
    expect(f).toBeLessThan(vf);
    expect(l).toBeGreaterThan(vl);
    expect(l - f).toBeLessThan(60);
    // Rows measured at 1 px still make a bounded window.
    for (let i = f - 500; i < l + 500; i++) m.measured(i, 1);
    const [f2, l2] = m.drawRange(336);
    expect(l2 - f2).toBeLessThanOrEqual(400);
  });
});
