import type { StateCreator } from 'zustand';
import type { AppState, CompareSlice, CompareState } from './types';

export const compareInitial = (): { compare: CompareState } => ({
  compare: { open: false, mode: 'plan', planB: 'none', overridesB: {}, leafB: null, diff: false },
});

/** Side B of a comparison. */
export const createCompareSlice: StateCreator<AppState, [], [], CompareSlice> = (set) => {
  const patch = (p: Partial<CompareState>) => set((s) => ({ compare: { ...s.compare, ...p } }));
  return {
    ...compareInitial(),
    toggleCompare: (open) => set((s) => ({ compare: { ...s.compare, open: open ?? !s.compare.open } })),
    setCompareMode: (mode, leafB) =>
      set((s) => ({
        compare: { ...s.compare, mode, leafB: mode === 'leaf' ? (s.compare.leafB ?? leafB ?? null) : s.compare.leafB },
      })),
    setPlanB: (planB) => patch({ planB }),
    setLeafB: (leafB) => patch({ leafB }),
    toggleDiff: (on) => set((s) => ({ compare: { ...s.compare, diff: on ?? !s.compare.diff } })),
  };
};
