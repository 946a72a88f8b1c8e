import { listControls } from './roving';

/**
 * The app's regions in the order F6 visits them (Shift+F6 goes back), as a desktop app's panes:
 * each with the place focus lands in it. A region not on screen is passed over.
 */
export const REGIONS: readonly { region: string; focus?: string }[] = [
  { region: 'nav.library' },
  { region: '.context-chart' },
  { region: 'section.tree', focus: '.tree-scroll' },
  { region: '.history-pane', focus: '.pane-scroll' },
  { region: '.leaf-columns > .projected-pane, .leaf-columns > .compare', focus: '.pane-scroll' },
  { region: '.panel-drawer' },
  { region: '.plan-bar' },
];

/** Where focus lands in a region: its list's tab stop, else its first control, else the region itself. */
function landingOf(region: HTMLElement, focus: string | undefined): HTMLElement {
  const inner = focus ? region.querySelector<HTMLElement>(focus) : null;
  if (inner) {
    if (inner.tabIndex >= 0) return inner;
    const stop = listControls(inner).find((c) => c.tabIndex >= 0);
    if (stop) return stop;
  }
  const first = listControls(region).find((c) => c.tabIndex >= 0);
  if (first) return first;
  // A region with nothing to focus (a placeholder) is focused itself, so F6 still shows where it is.
  if (!region.hasAttribute('tabindex')) region.setAttribute('tabindex', '-1');
  return region;
}

/** The regions present now, in order. */
function presentRegions(doc: Document): { el: HTMLElement; focus: string | undefined }[] {
  const out: { el: HTMLElement; focus: string | undefined }[] = [];
  for (const r of REGIONS) {
    const el = doc.querySelector<HTMLElement>(r.region);
    if (el && el.getClientRects().length > 0) out.push({ el, focus: r.focus });
  }
  return out;
}

/** Moves focus to the next region (dir 1) or the previous one (dir -1), wrapping around. */
export function focusRegion(dir: 1 | -1, doc: Document = document): HTMLElement | null {
  const regions = presentRegions(doc);
  if (regions.length === 0) return null;
  const active = doc.activeElement;
  const at = regions.findIndex((r) => active instanceof Node && r.el.contains(active));
  const next = at < 0 ? (dir === 1 ? 0 : regions.length - 1) : (at + dir + regions.length) % regions.length;
  const target = landingOf(regions[next].el, regions[next].focus);
  target.focus();
  return target;
}

/** Focus the session tree's rows (the skip link's target). */
export function focusTree(doc: Document = document): void {
  doc.querySelector<HTMLElement>('.tree-scroll')?.focus();
}
