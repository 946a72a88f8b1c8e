/**
 * What the chart bench runs in the page: the chart's own model, bucketing and draw code
 * (bundled from src/renderer/context-chart by vite), and a synthetic series to draw.
 */
import type { ContextPoint, ContextSeries } from '../../src/shared/api-series';
import { chartModel, columnsOf } from '../../src/renderer/context-chart/chart-model';
import { drawContextChart, plotWidthOf, type ChartTheme } from '../../src/renderer/context-chart/chart-draw';

/** `n` turn ends that grow, get cut back by packets and resets, with measured input on every other point. */
export function syntheticSeries(n: number): ContextSeries {
  const points: ContextPoint[] = [];
  let full = 0;
  for (let i = 0; i < n; i++) {
    full = i % 500 === 499 ? 2000 : full + 40 + (i % 7) * 10;
    const card = (i % 300) * 3;
    const total = 1200 + 800 + full + card + 150 + 60;
    points.push({
      leaf: `e${i}`,
      pos: i * 4,
      ts: '2026-01-01T00:00:00Z',
      turnId: `t${i}`,
      parts: { system: 1200, tools: 800, full, card, packet: 150, reset: 0, preamble: 0, tail: 60, open: 0 },
      total,
      available: 184000 - total,
      overBudget: Math.max(0, total - 184000),
      turns: { full: 10, card: i % 300, packet: 1 },
      markers: {
        reset: i % 500 === 499 ? `r${i}` : null,
        packets: i % 97 === 0 ? [`p${i}`] : [],
        degraded: i % 41 === 0 ? [`t${i - 1}`] : [],
        overBudget: total > 184000,
      },
      measured:
        i % 2 ? { entryId: `a${i}`, tokens: Math.round(total * 1.1), answeredId: `e${i}`, estimated: total } : null,
    });
  }
  return {
    leaf: `e${n - 1}`,
    window: 200000,
    reserve: 16000,
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
    basis: 'bench',
    kept: 0,
    rest: 0,
  };
}

const THEME: ChartTheme = {
  parts: ['#9aa3b0', '#c3c9d2', '#c0392b', '#607d8b', '#2e7d32', '#8e44ad', '#d35400', '#1e88e5', '#00897b'],
  text: '#5d6673',
  grid: '#d5d9e0',
  window: '#1d2128',
  budget: '#c62828',
  measured: '#1d2128',
  measuredRing: '#fff',
  cursor: '#2f6fe0',
  hover: '#fff2b3',
  over: '#c62828',
  packet: '#d35400',
  reset: '#c0392b',
  degraded: '#8e44ad',
  outlineB: '#2f6fe0',
};

/**
 * Draws a series of `n` points `repeat` times on a canvas `width` × `height` CSS pixels (at the
 * page's device pixel ratio): a new series (model + columns + draw) and redraws (hover: draw only).
 */
export function measureChart(n: number, width: number, height: number, repeat: number) {
  const series = syntheticSeries(n);
  const canvas = document.createElement('canvas');
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  document.body.append(canvas);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d context');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const full: number[] = [];
  const redraw: number[] = [];
  let columns = 0;
  for (let r = 0; r < repeat; r++) {
    const t0 = performance.now();
    const m = chartModel(series);
    const cols = columnsOf(m, plotWidthOf(width));
    drawContextChart(ctx, width, height, m, cols, THEME, {
      cursor: cols.count - 1,
      hover: -1,
      focus: -1,
      scale: 'window',
    });
    // Reading one pixel waits for the drawing to be done, not only queued.
    ctx.getImageData(0, 0, 1, 1);
    const t1 = performance.now();
    drawContextChart(ctx, width, height, m, cols, THEME, {
      cursor: cols.count - 1,
      hover: r % cols.count,
      focus: -1,
      scale: 'window',
    });
    ctx.getImageData(0, 0, 1, 1);
    const t2 = performance.now();
    full.push(t1 - t0);
    redraw.push(t2 - t1);
    columns = cols.count;
  }
  canvas.remove();
  return { n, columns, full, redraw };
}
