import type { StateCreator } from 'zustand';
import { ownTable } from '../../shared/own-key';
import type { AppState, LayoutSlice, PaneName } from './types';

/** Where the widths are remembered (localStorage, per origin). */
export const PANE_WIDTHS_KEY = 'vak-explorer.pane-widths.v1';

type Column = PaneName | 'sidebar';
type Widths = Record<Column, number>;

/** Narrowest and widest each column may be, and its width on first start (fits 1280 px). */
export const PANE_LIMITS: Record<Column, { min: number; max: number; initial: number }> = ownTable({
  sidebar: { min: 180, max: 640, initial: 240 },
  tree: { min: 250, max: 1400, initial: 380 },
  history: { min: 240, max: 1400, initial: 330 },
});

const COLUMNS = Object.keys(PANE_LIMITS) as Column[];

/** `px` within the column's limits, whole pixels. */
export const clampWidth = (c: Column, px: number): number =>
  Math.max(PANE_LIMITS[c].min, Math.min(PANE_LIMITS[c].max, Math.round(px)));

/** The remembered widths; anything missing or malformed falls back to the initial width. */
export function loadWidths(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): Widths {
  const out = Object.fromEntries(COLUMNS.map((c) => [c, PANE_LIMITS[c].initial])) as Widths;
  let saved: unknown;
  try {
    saved = JSON.parse(storage?.getItem(PANE_WIDTHS_KEY) ?? 'null');
  } catch {
    return out;
  }
  if (typeof saved !== 'object' || saved === null) return out;
  for (const c of COLUMNS) {
    const v: unknown = Object.getOwnPropertyDescriptor(saved, c)?.value;
    if (typeof v === 'number' && Number.isFinite(v)) out[c] = clampWidth(c, v);
  }
  return out;
}

/** localStorage when there is one that works (a sandboxed page may throw on access). */
function safeStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

const remember = (w: Widths): void => {
  try {
    safeStorage()?.setItem(PANE_WIDTHS_KEY, JSON.stringify(w));
  } catch {
    // A full or refused storage only loses the memory of the width, not the width.
  }
};

export const layoutInitial = (): Pick<LayoutSlice, 'sidebarWidth' | 'paneWidths'> => {
  const w = loadWidths();
  return { sidebarWidth: w.sidebar, paneWidths: { tree: w.tree, history: w.history } };
};

/** Column widths: set by the drag handles, remembered in localStorage. */
export const createLayoutSlice: StateCreator<AppState, [], [], LayoutSlice> = (set) => ({
  ...layoutInitial(),
  setSidebarWidth: (px) =>
    set((s) => {
      const sidebarWidth = clampWidth('sidebar', px);
      remember({ sidebar: sidebarWidth, ...s.paneWidths });
      return { sidebarWidth };
    }),
  setPaneWidth: (pane, px) =>
    set((s) => {
      const paneWidths = { ...s.paneWidths, [pane]: clampWidth(pane, px) };
      remember({ sidebar: s.sidebarWidth, ...paneWidths });
      return { paneWidths };
    }),
});
