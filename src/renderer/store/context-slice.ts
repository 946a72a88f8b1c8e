import type { StateCreator } from 'zustand';
import type { AppState, ContextSlice } from './types';

export const contextInitial = (): Pick<ContextSlice, 'chartOpen' | 'exportNotice' | 'fateOpen'> => ({
  chartOpen: true,
  exportNotice: null,
  fateOpen: false,
});

/** The context-over-time strip, and what the last export or copy did. */
export const createContextSlice: StateCreator<AppState, [], [], ContextSlice> = (set) => ({
  ...contextInitial(),
  toggleChart: (open) => set((s) => ({ chartOpen: open ?? !s.chartOpen })),
  toggleFate: (open) => set((s) => ({ fateOpen: open ?? !s.fateOpen })),
  setExportNotice: (notice) => set({ exportNotice: notice }),
});
