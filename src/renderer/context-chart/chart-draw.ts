/**
 * Draws the context-over-time chart on a 2D canvas. One path per part (a rect per column)
 * and one fill each: the cost is O(columns × parts), and columns never exceed the plot's
 * width in pixels, so 10,000 turns draw like 1,000 (bench: `ui chart`).
 */
import {
  MK_DEGRADED,
  MK_OVER,
  MK_PACKET,
  MK_RESET,
  STACK,
  yTop,
  type ChartModel,
  type ChartScale,
  type Columns,
} from './chart-model';

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
  scale: ChartScale;
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
  const yMax = b ? Math.max(yTop(m, st.scale), yTop(b.model, st.scale)) : yTop(m, st.scale);
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
  if (m.window > yMax || Math.abs(y(half) - y(m.window)) > 14) ctx.fillText(fmtAxis(half), x0 - 4, y(half));
  if (m.window > yMax || Math.abs(y(m.window) - PAD.top) > 14) ctx.fillText(fmtAxis(yMax), x0 - 4, PAD.top);
  // The first and last turn under the plot.
  if (cols.count > 0) {
    ctx.textBaseline = 'alphabetic';
    ctx.textAlign = 'left';
    ctx.fillText('turn 1', x0, height - 2);
    ctx.textAlign = 'right';
    ctx.fillText(`turn ${m.n}`, x0 + plotW, height - 2);
    ctx.textBaseline = 'middle';
  }

  if (st.hover >= 0 && st.hover < cols.count) {
    ctx.fillStyle = theme.hover;
    ctx.fillRect(x0 + st.hover * cw, PAD.top, cw, plotH);
  }

  // Stacked bars, one path per part, on whole pixels (fractional edges cost anti-aliasing).
  const base = new Float64Array(cols.count);
  const left = new Float64Array(cols.count + 1);
  for (let c = 0; c <= cols.count; c++) left[c] = Math.round(x0 + c * cw);
  for (let k = 0; k < STACK.length; k++) {
    const part = m.parts[k];
    ctx.beginPath();
    let any = false;
    for (let c = 0; c < cols.count; c++) {
      const v = part[cols.rep[c]];
      if (v <= 0) continue;
      const top = Math.round(y(base[c] + v));
      const bottom = Math.round(y(base[c]));
      base[c] += v;
      if (bottom <= top) continue;
      ctx.rect(left[c], top, Math.max(1, left[c + 1] - left[c] - gap), bottom - top);
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
  ctx.textAlign = 'right';
  if (m.window <= yMax) hline(m.window, theme.window, [5, 4], fmtAxis(m.window));
  if (m.budget > 0 && m.budget <= yMax && m.budget !== m.window) {
    hline(m.budget, theme.budget, [2, 3], Math.abs(y(m.budget) - y(m.window)) > 10 ? fmtAxis(m.budget) : '');
  }
  if (m.window > yMax) {
    // Off the scale: say where it is instead of squashing the bars under it.
    ctx.fillStyle = theme.text;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'alphabetic';
    ctx.fillText(`window ${fmtAxis(m.window)} is above this scale (y: window shows it)`, x0 + plotW / 2, height - 2);
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
  }

  // Markers along the top: over budget as a red tick, then reset / packet / degradation
  // triangles, one path per kind (a fill per marker would cost a fill per column).
  const kinds = [
    [MK_RESET, theme.reset],
    [MK_PACKET, theme.packet],
    [MK_DEGRADED, theme.degraded],
  ] as const;
  ctx.fillStyle = theme.over;
  for (let c = 0; c < cols.count; c++) {
    if (cols.markers[c] & MK_OVER) ctx.fillRect(x0 + c * cw, PAD.top - 3, Math.max(1, cw - gap), 2);
  }
  for (let k = 0; k < kinds.length; k++) {
    const [bit, color] = kinds[k];
    ctx.beginPath();
    let any = false;
    for (let c = 0; c < cols.count; c++) {
      const mk = cols.markers[c];
      if (!(mk & bit)) continue;
      // Row: how many of the kinds before this one the column also has.
      let row = 0;
      for (let j = 0; j < k; j++) if (mk & kinds[j][0]) row++;
      const cx = x0 + (c + 0.5) * cw;
      const ty = PAD.top + 3 + row * 6;
      ctx.moveTo(cx - 3, ty + 3);
      ctx.lineTo(cx + 3, ty + 3);
      ctx.lineTo(cx, ty - 2);
      ctx.closePath();
      any = true;
    }
    if (any) {
      ctx.fillStyle = color;
      ctx.fill();
    }
  }

  // Measured input tokens as dots (squares when columns are too narrow for a round one to show).
  const r = cw >= 6 ? 3 : 2;
  const round = cw >= 3;
  ctx.beginPath();
  let dots = false;
  for (let c = 0; c < cols.count; c++) {
    const v = cols.measured[c];
    if (Number.isNaN(v)) continue;
    const cx = x0 + (c + 0.5) * cw;
    // Above the scale (measured far over the estimate): pinned to the top edge.
    const cy = Math.max(PAD.top + r, y(v));
    if (round) {
      ctx.moveTo(cx + r, cy);
      ctx.arc(cx, cy, r, 0, Math.PI * 2);
    } else ctx.rect(cx - r, cy - r, 2 * r, 2 * r);
    dots = true;
  }
  if (dots) {
    ctx.fillStyle = theme.measured;
    ctx.fill();
    if (round) {
      ctx.strokeStyle = theme.measuredRing;
      ctx.lineWidth = 1;
      ctx.stroke();
    }
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
