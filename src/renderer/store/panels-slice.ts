import type { StateCreator } from 'zustand';
import type { AppState, PanelName, PanelsSlice } from './types';

export const panelsInitial = (): { panels: Record<PanelName, boolean> } => ({
  panels: { warnings: false, usage: false, work: false, plan: false, keys: false, cost: false },
});

/** Drawer panels and the keys overlay. */
export const createPanelsSlice: StateCreator<AppState, [], [], PanelsSlice> = (set, get) => ({
  ...panelsInitial(),
  togglePanel: (p, open) => set((s) => ({ panels: { ...s.panels, [p]: open ?? !s.panels[p] } })),
  escape: () => {
    const s = get();
    if (s.panels.keys) s.togglePanel('keys', false);
    else if (s.paletteOpen) s.togglePalette(false);
    else if (s.composerFor) s.closeComposer();
    else if (s.searchOpen) s.closeSearch();
    else s.clearLinks();
  },
});
