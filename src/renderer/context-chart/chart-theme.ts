import { ownTable } from '../../shared/own-key';
import { STACK } from './chart-model';
import type { ChartTheme } from './chart-draw';

/** CSS variable of each stacked part: the fidelity colours of the badges and the plan strip. */
const PART_VAR: Record<(typeof STACK)[number], string> = ownTable({
  system: '--chart-system',
  tools: '--chart-tools',
  reset: '--fid-reset',
  preamble: '--fid-preamble',
  full: '--fid-full',
  card: '--fid-card',
  packet: '--fid-packet',
  open: '--fid-open',
  tail: '--fid-tail',
});

/** The theme last read, and the colour scheme it was read under. */
let kept: { dark: boolean; theme: ChartTheme } | null = null;

/**
 * The chart's colours as the page's stylesheet sets them (light or dark): read once per colour
 * scheme. A computed-style read recalculates the page's styles first, and the chart is drawn
 * again in the task that brings a clicked leaf's view, among that view's DOM changes.
 */
export function readChartTheme(el: Element): ChartTheme {
  const dark = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
  if (kept?.dark === dark) return kept.theme;
  const theme = readTheme(el);
  // Kept only once the stylesheet is there (a test DOM, or a page still loading, has no variables).
  if (getComputedStyle(el).getPropertyValue('--fg').trim()) kept = { dark, theme };
  return theme;
}

function readTheme(el: Element): ChartTheme {
  const cs = getComputedStyle(el);
  const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
  return {
    parts: STACK.map((p) => v(PART_VAR[p], '#888')),
    text: v('--fg-dim', '#666'),
    grid: v('--border', '#ccc'),
    window: v('--fg', '#222'),
    budget: v('--danger', '#c62828'),
    measured: v('--fg', '#222'),
    measuredRing: v('--bg', '#fff'),
    cursor: v('--accent', '#2f6fe0'),
    hover: v('--hl', '#fff2b3'),
    over: v('--danger', '#c62828'),
    packet: v('--fid-packet', '#d35400'),
    reset: v('--fid-reset', '#c0392b'),
    degraded: v('--fid-card', '#8e44ad'),
    outlineB: v('--accent', '#2f6fe0'),
  };
}

/** The legend's entries, bottom part first. */
export const PART_LABEL: Record<(typeof STACK)[number], string> = {
  system: 'system',
  tools: 'tools',
  reset: 'reset',
  preamble: 'preamble',
  full: 'full',
  card: 'card',
  packet: 'packet',
  open: 'open',
  tail: 'tail',
};
export { PART_VAR };
