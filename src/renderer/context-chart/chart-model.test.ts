import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextPoint, ContextSeries } from '../../shared/api-series';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { createBackendApi, type BackendApi } from '../test-support/backend-api';
import {
  chartModel,
  columnOfPoint,
  columnsOf,
  MK_DEGRADED,
  MK_OVER,
  MK_PACKET,
  MK_RESET,
  pointAtPos,
  STACK,
  yTop,
} from './chart-model';
import { unpackSeries } from '../../shared/series-packed';

let api: BackendApi;
beforeAll(async () => {
  api = await createBackendApi({ fixtures: ['linear', 'packets', 'reset'] });
});
afterAll(() => api.close());

/** A series of `n` points whose totals rise and fall, with a marker every 97th point. */
function synthetic(n: number): ContextSeries {
  const points: ContextPoint[] = [];
  for (let i = 0; i < n; i++) {
    const full = 1000 + ((i * 37) % 5000);
    points.push({
      leaf: `e${i}`,
      pos: i * 3,
      ts: '2026-01-01T00:00:00Z',
      turnId: `t${i}`,
      parts: { system: 100, tools: 50, full, card: i % 3, packet: 0, reset: 0, preamble: 0, tail: 10, open: 20 },
      total: 180 + full + (i % 3),
      available: 0,
      overBudget: 0,
      turns: { full: 1, card: 0, packet: 0 },
      markers: { reset: i % 97 === 5 ? 'r' : null, packets: [], degraded: [], overBudget: false },
      measured: i % 2 ? { entryId: `a${i}`, tokens: 2000 + i, answeredId: `e${i}`, estimated: 0 } : null,
    });
  }
  return {
    leaf: `e${n - 1}`,
    window: 8000,
    reserve: 1000,
    points,
    fit: {
      points: 0,
      bytesPerToken: null,
      suggested: null,
      r2: null,
      meanRelErrorSuggested: null,
      meanRelErrorCurrent: null,
      cannotFit: null,
    },
    work: { projections: 0, points: n, scanned: true },
    basis: 'test',
    kept: 0,
    rest: 0,
  };
}

describe('chart model', () => {
  it("lays out the backend's series part by part: totals, measured inputs and markers as the points say", async () => {
    for (const fixture of ['linear', 'packets', 'reset']) {
      for (const window of [200_000, 3000]) {
        const s = unpackSeries(
          await api.getContextSeries({
            key: api.keyOf(fixture),
            leaf: null,
            plan: 'auto',
            profile: { ...DEFAULT_PROFILE, window, reserve: 500 },
          }),
        );
        const m = chartModel(s);
        expect(m.n).toBe(s.points.length);
        expect(m.n).toBeGreaterThan(0);
        s.points.forEach((p, i) => {
          const stacked = STACK.reduce((a, k, j) => a + m.parts[j][i], 0);
          expect(stacked).toBe(p.total);
          expect(m.total[i]).toBe(p.total);
          if (p.measured) expect(m.measured[i]).toBe(p.measured.tokens);
          else expect(m.measured[i]).toBeNaN();
          expect(!!(m.markers[i] & MK_RESET)).toBe(p.markers.reset !== null);
          expect(!!(m.markers[i] & MK_PACKET)).toBe(p.markers.packets.length > 0);
          expect(!!(m.markers[i] & MK_DEGRADED)).toBe(p.markers.degraded.length > 0);
          expect(!!(m.markers[i] & MK_OVER)).toBe(p.markers.overBudget);
          expect(m.dataMax).toBeGreaterThanOrEqual(Math.max(p.total, p.measured?.tokens ?? 0));
          expect(yTop(m, 'window')).toBeGreaterThanOrEqual(Math.max(m.dataMax, s.window));
          expect(yTop(m, 'data')).toBeGreaterThanOrEqual(m.totalMax);
          expect(m.totalMax).toBeGreaterThanOrEqual(p.total);
        });
        expect(m.budget).toBe(window - 500);
      }
    }
    // The fixtures have what the chart marks: a reset, a packet, and measured inputs.
    const reset = chartModel(
      unpackSeries(
        await api.getContextSeries({ key: api.keyOf('reset'), leaf: null, plan: 'auto', profile: DEFAULT_PROFILE }),
      ),
    );
    expect(reset.markers.some((b) => (b & MK_RESET) !== 0)).toBe(true);
    const linear = chartModel(
      unpackSeries(
        await api.getContextSeries({ key: api.keyOf('linear'), leaf: null, plan: 'auto', profile: DEFAULT_PROFILE }),
      ),
    );
    expect(linear.measured.some((v) => !Number.isNaN(v))).toBe(true);
  });

  it('one column per point while they fit', () => {
    const m = chartModel(synthetic(40));
    const cols = columnsOf(m, 800);
    expect(cols.count).toBe(40);
    expect(cols.width).toBe(20);
    for (let c = 0; c < 40; c++) expect([cols.first[c], cols.last[c], cols.rep[c]]).toEqual([c, c, c]);
  });

  it('10,000 points over 700 pixels: one column per pixel, each the tallest of its run, no point lost', () => {
    const s = synthetic(10_000);
    const m = chartModel(s);
    const cols = columnsOf(m, 700);
    expect(cols.count).toBe(700);
    let next = 0;
    for (let c = 0; c < cols.count; c++) {
      expect(cols.first[c]).toBe(next);
      next = cols.last[c] + 1;
      let tallest = cols.first[c];
      let mk = 0;
      let ms = NaN;
      for (let i = cols.first[c]; i <= cols.last[c]; i++) {
        if (m.total[i] > m.total[tallest]) tallest = i;
        mk |= m.markers[i];
        if (!Number.isNaN(m.measured[i])) ms = Number.isNaN(ms) ? m.measured[i] : Math.max(ms, m.measured[i]);
      }
      expect(cols.rep[c]).toBe(tallest);
      expect(cols.markers[c]).toBe(mk);
      expect(Number.isNaN(ms) ? Number.isNaN(cols.measured[c]) : cols.measured[c] === ms).toBe(true);
      expect(columnOfPoint(cols, cols.first[c])).toBe(c);
      expect(columnOfPoint(cols, cols.last[c])).toBe(c);
    }
    expect(next).toBe(10_000);
    // Every reset marker survives aggregation.
    const resets = s.points.filter((p) => p.markers.reset).length;
    expect([...cols.markers].filter((b) => b & MK_RESET).length).toBe(resets);
  });

  it("an entry's chain position maps to the turn end it belongs to", () => {
    const pts = [{ pos: 2 }, { pos: 5 }, { pos: 9 }];
    expect(pointAtPos(pts, 0)).toBe(0);
    expect(pointAtPos(pts, 2)).toBe(0);
    expect(pointAtPos(pts, 3)).toBe(1);
    expect(pointAtPos(pts, 9)).toBe(2);
    expect(pointAtPos(pts, 12)).toBe(2);
    expect(pointAtPos([], 3)).toBe(-1);
  });
});
