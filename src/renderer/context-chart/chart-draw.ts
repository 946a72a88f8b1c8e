/**
 * Draws the context-over-time chart on a 2D canvas. One path per part (a rect per column)
 * and one fill each: the cost is O(columns × parts), and columns never exceed the plot's
 * width in pixels, so 10,000 turns draw like 1,000 (bench: `ui chart`).
 */
import { MK_DEGRADED, MK_OVER, MK_PACKET, MK_RESET, STACK, type ChartModel, type Columns } from './chart-model';

/** Colours, read from the page's CSS variables (the fidelity colours used everywhere). */
export interface ChartTheme {
  /** One per STACK part. */
  parts: string[];
  text: string;
  grid: string;
  window: string;
  budget: string;
  measured: string;
  measuredRing: string;
  cursor: string;
  hover: string;
  over: string;
  packet: string;
  reset: string;
  degraded: string;
  outlineB: string;
}

/** The plot's margins inside the canvas (CSS pixels): y labels on the left, markers on top. */
export const PAD = { left: 46, right: 10, top: 12, bottom: 14 };

export interface DrawState {
  /** Column of the selected leaf (-1: none on the chart). */
  cursor: number;
  hover: number;
  /** Keyboard focus column (-1: the chart is not focused). */
  focus: number;
}

/** Side B of a plan comparison: its totals drawn as an outline over the same columns. */
export interface OutlineB {
  model: ChartModel;
  cols: Columns;
}

const fmtAxis = (v: number): string =>
  v >= 1e6 ? `${+(v / 1e6).toFixed(1)}M` : v >= 1000 ? `${+(v / 1000).toFixed(v >= 1e4 ? 0 : 1)}k` : `${Math.round(v)}`;

/** Draws everything; `width`/`height` in CSS pixels (the context is already scaled for the device). */
export function drawContextChart(
  ctx: CanvasRenderingContext2D,
  width: number,
  height: number,
  m: ChartModel,
  cols: Columns,
  theme: ChartTheme,
  st: DrawState,
  b: OutlineB | null = null,
): void {
  ctx.clearRect(0, 0, width, height);
  const plotW = Math.max(1, width - PAD.left - PAD.right);
  const plotH = Math.max(1, height - PAD.top - PAD.bottom);
  const yMax = b ? Math.max(m.yMax, b.model.yMax) : m.yMax;
  const y = (v: number) => PAD.top + plotH - (v / yMax) * plotH;
  const x0 = PAD.left;
  const cw = cols.width;
  // Bars leave a gap while columns are wide enough to see one.
  const gap = cw >= 4 ? 1 : 0;

  // Axis: 0, the budget and the window, labelled.
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  ctx.fillStyle = theme.text;
  ctx.strokeStyle = theme.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(x0, PAD.top + plotH + 0.5);
  ctx.lineTo(x0 + plotW, PAD.top + plotH + 0.5);
  ctx.stroke();
  ctx.fillText('0', x0 - 4, PAD.top + plotH);
  const half = yMax / 2;
  if (Math.abs(y(half) - y(m.window)) > 14) ctx.fillText(fmtAxis(half), x0 - 4, y(half));

  if (st.hover >= 0 && st.hover < cols.count) {
    ctx.fillStyle = theme.hover;
    ctx.fillRect(x0 + st.hover * cw, PAD.top, cw, plotH);
  }

  // Stacked bars, one path per part.
  const base = new Float64Array(cols.count);
  for (let k = 0; k < STACK.length; k++) {
    const part = m.parts[k];
    ctx.beginPath();
    let any = false;
    for (let c = 0; c < cols.count; c++) {
      const v = part[cols.rep[c]];
      if (v <= 0) continue;
      const top = y(base[c] + v);
      const bottom = y(base[c]);
      base[c] += v;
      ctx.rect(x0 + c * cw, top, Math.max(1, cw - gap), bottom - top);
      any = true;
    }
    if (any) {
      ctx.fillStyle = theme.parts[k];
      ctx.fill();
    }
  }

  // Side B's totals as a step outline.
  if (b && b.cols.count > 0) {
    ctx.strokeStyle = theme.outlineB;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([]);
    ctx.beginPath();
    const bw = b.cols.width;
    for (let c = 0; c < b.cols.count; c++) {
      const yy = y(b.model.total[b.cols.rep[c]]);
      if (c === 0) ctx.moveTo(x0, yy);
      else ctx.lineTo(x0 + c * bw, yy);
      ctx.lineTo(x0 + (c + 1) * bw, yy);
    }
    ctx.stroke();
  }

  // Window and budget (window − reserve) lines.
  const hline = (v: number, color: string, dash: number[], label: string) => {
    const yy = Math.round(y(v)) + 0.5;
    ctx.strokeStyle = color;
    ctx.lineWidth = 1;
    ctx.setLineDash(dash);
    ctx.beginPath();
    ctx.moveTo(x0, yy);
    ctx.lineTo(x0 + plotW, yy);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = color;
    ctx.fillText(label, x0 - 4, yy);
  };
  hline(m.window, theme.window, [5, 4], fmtAxis(m.window));
  if (m.budget !== m.window && Math.abs(y(m.budget) - y(m.window)) > 10) {
    hline(m.budget, theme.budget, [2, 3], fmtAxis(m.budget));
  } else if (m.budget !== m.window) {
    hline(m.budget, theme.budget, [2, 3], '');
  }

  // Markers along the top: over budget as a red tick, then packet / reset / degradation dots.
  for (let c = 0; c < cols.count; c++) {
    const mk = cols.markers[c];
    if (mk === 0) continue;
    const cx = x0 + (c + 0.5) * cw;
    if (mk & MK_OVER) {
      ctx.fillStyle = theme.over;
      ctx.fillRect(x0 + c * cw, PAD.top - 3, Math.max(1, cw - gap), 2);
    }
    let row = 0;
    for (const [bit, color] of [
      [MK_RESET, theme.reset],
      [MK_PACKET, theme.packet],
      [MK_DEGRADED, theme.degraded],
    ] as const) {
      if (!(mk & bit)) continue;
      ctx.fillStyle = color;
      const ty = PAD.top + 3 + row * 6;
      ctx.beginPath();
      ctx.moveTo(cx - 3, ty + 3);
      ctx.lineTo(cx + 3, ty + 3);
      ctx.lineTo(cx, ty - 2);
      ctx.closePath();
      ctx.fill();
      row++;
    }
  }

  // Measured input tokens as dots.
  ctx.beginPath();
  let dots = false;
  const r = cw >= 6 ? 3 : 2;
  for (let c = 0; c < cols.count; c++) {
    const v = cols.measured[c];
    if (Number.isNaN(v)) continue;
    const cx = x0 + (c + 0.5) * cw;
    const cy = y(v);
    ctx.moveTo(cx + r, cy);
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
    dots = true;
  }
  if (dots) {
    ctx.fillStyle = theme.measured;
    ctx.fill();
    ctx.strokeStyle = theme.measuredRing;
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  // The selected leaf, and the keyboard focus.
  if (st.cursor >= 0 && st.cursor < cols.count) {
    const cx = Math.round(x0 + (st.cursor + 0.5) * cw) + 0.5;
    ctx.strokeStyle = theme.cursor;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(cx, PAD.top - 4);
    ctx.lineTo(cx, PAD.top + plotH + 4);
    ctx.stroke();
  }
  if (st.focus >= 0 && st.focus < cols.count) {
    ctx.strokeStyle = theme.cursor;
    ctx.lineWidth = 1;
    ctx.setLineDash([2, 2]);
    ctx.strokeRect(x0 + st.focus * cw + 0.5, PAD.top + 0.5, Math.max(2, cw - 1), plotH - 1);
    ctx.setLineDash([]);
  }
}

/** The column under a CSS-pixel x inside the canvas, or -1 outside the plot. */
export function columnAtX(x: number, width: number, cols: Columns): number {
  const plotW = width - PAD.left - PAD.right;
  if (x < PAD.left || x >= PAD.left + plotW || cols.count === 0) return -1;
  return Math.min(cols.count - 1, Math.floor((x - PAD.left) / cols.width));
}

/** The plot's width for a canvas `width` CSS pixels wide. */
export const plotWidthOf = (width: number): number => Math.max(1, width - PAD.left - PAD.right);
