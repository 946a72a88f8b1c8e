import type { StateCreator } from 'zustand';
import type { AppState, ContextSlice } from './types';

export const contextInitial = (): Pick<ContextSlice, 'chartOpen' | 'exportNotice'> => ({
  chartOpen: true,
  exportNotice: null,
});

/** The context-over-time strip, and what the last export or copy did. */
export const createContextSlice: StateCreator<AppState, [], [], ContextSlice> = (set) => ({
  ...contextInitial(),
  toggleChart: (open) => set((s) => ({ chartOpen: open ?? !s.chartOpen })),
  setExportNotice: (notice) => set({ exportNotice: notice }),
});
