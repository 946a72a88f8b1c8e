/**
 * The chart's data, laid out once per series for drawing: one typed array per part, so a
 * redraw (hover, cursor, resize) is loops over numbers, never over the series' objects.
 * Pure: no DOM (the draw function and the bench use it as is).
 */
import { CONTEXT_PARTS, type ContextParts, type ContextPoint, type ContextSeries } from '../../shared/api-series';

/** Parts bottom to top: the fixed ones first, then the history, then the open turn and the tail. */
export const STACK: readonly (keyof ContextParts)[] = CONTEXT_PARTS;

/** Marker bits of a point (several may be set). */
export const MK_PACKET = 1;
export const MK_RESET = 2;
export const MK_DEGRADED = 4;
export const MK_OVER = 8;

export interface ChartModel {
  /** Points in chain order. */
  n: number;
  /** `parts[k][i]`: tokens of part STACK[k] at point i. */
  parts: Float64Array[];
  total: Float64Array;
  /** Measured input tokens at point i, NaN where the ledger has none. */
  measured: Float64Array;
  markers: Uint8Array;
  window: number;
  /** `window − reserve`: the line the plan keeps under. */
  budget: number;
  /** Largest total or measured figure of any point. */
  dataMax: number;
  /** Largest projected total of any point. */
  totalMax: number;
}

/** How tall the y axis is: up to the window (the budget in sight), or up to the data (small contexts readable). */
export type ChartScale = 'window' | 'data';

/** The top of the y axis under a scale; the window line is drawn only when it is below it. */
export function yTop(m: Pick<ChartModel, 'window' | 'budget' | 'dataMax' | 'totalMax'>, scale: ChartScale): number {
  const top =
    scale === 'window'
      ? Math.max(m.window, m.dataMax)
      : // The projected totals set the scale (measured figures above it are pinned to the top);
        // the budget joins when it is near: the line says how close the context is.
        Math.max(m.totalMax, m.budget > 0 && m.budget <= m.totalMax * 1.5 ? m.budget : 0);
  return top > 0 ? top * 1.08 : 1;
}

/** Lays a series out for drawing. */
export function chartModel(series: Pick<ContextSeries, 'points' | 'window' | 'reserve'>): ChartModel {
  const n = series.points.length;
  const parts = STACK.map(() => new Float64Array(n));
  const total = new Float64Array(n);
  const measured = new Float64Array(n);
  const markers = new Uint8Array(n);
  let top = 0;
  let totalMax = 0;
  for (let i = 0; i < n; i++) {
    const p = series.points[i];
    for (let k = 0; k < STACK.length; k++) parts[k][i] = Math.max(0, p.parts[STACK[k]]);
    total[i] = p.total;
    measured[i] = p.measured ? p.measured.tokens : NaN;
    markers[i] = markerBits(p);
    top = Math.max(top, p.total, p.measured?.tokens ?? 0);
    totalMax = Math.max(totalMax, p.total);
  }
  return {
    n,
    parts,
    total,
    measured,
    markers,
    window: series.window,
    budget: series.window - series.reserve,
    dataMax: top,
    totalMax,
  };
}

function markerBits(p: ContextPoint): number {
  return (
    (p.markers.packets.length > 0 ? MK_PACKET : 0) |
    (p.markers.reset !== null ? MK_RESET : 0) |
    (p.markers.degraded.length > 0 ? MK_DEGRADED : 0) |
    (p.markers.overBudget ? MK_OVER : 0)
  );
}

/**
 * Columns the plot draws: one per point while they fit, else one per pixel, each standing
 * for a run of points (`first … last`) drawn as its tallest (`rep`): a peak is never hidden
 * by aggregation, and every marker of the run is kept.
 */
export interface Columns {
  count: number;
  /** Width of one column in CSS pixels. */
  width: number;
  first: Int32Array;
  last: Int32Array;
  rep: Int32Array;
  /** Marker bits of the whole run. */
  markers: Uint8Array;
  /** Largest measured figure of the run (NaN: none). */
  measured: Float64Array;
}

/** Buckets `m`'s points into columns over `plotWidth` CSS pixels. */
export function columnsOf(m: ChartModel, plotWidth: number): Columns {
  const px = Math.max(1, Math.floor(plotWidth));
  const count = Math.min(m.n, px);
  const first = new Int32Array(count);
  const last = new Int32Array(count);
  const rep = new Int32Array(count);
  const markers = new Uint8Array(count);
  const measured = new Float64Array(count);
  for (let c = 0; c < count; c++) {
    const a = Math.floor((c * m.n) / count);
    const b = Math.max(a, Math.floor(((c + 1) * m.n) / count) - 1);
    first[c] = a;
    last[c] = b;
    let best = a;
    let mk = 0;
    let ms = NaN;
    for (let i = a; i <= b; i++) {
      if (m.total[i] > m.total[best]) best = i;
      mk |= m.markers[i];
      const v = m.measured[i];
      if (!Number.isNaN(v) && !(v <= ms)) ms = v;
    }
    rep[c] = best;
    markers[c] = mk;
    measured[c] = ms;
  }
  return { count, width: count > 0 ? plotWidth / count : plotWidth, first, last, rep, markers, measured };
}

/** The column that holds point `i` (binary search over the runs). */
export function columnOfPoint(cols: Columns, i: number): number {
  let lo = 0;
  let hi = cols.count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cols.first[mid] <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The point that stands for `leafPos` on the chart: the first point at or after that chain
 * position (the turn end the entry belongs to), else the last point; -1 without points.
 */
export function pointAtPos(points: readonly { pos: number }[], leafPos: number): number {
  if (points.length === 0) return -1;
  let lo = 0;
  let hi = points.length - 1;
  if (points[hi].pos < leafPos) return hi;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid].pos >= leafPos) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
