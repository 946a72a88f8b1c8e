import type { StateCreator } from 'zustand';
import { keyedCopy } from '../../shared/own-key';
import type { AppState, CompareSlice, CompareState } from './types';

export const compareInitial = (): { compare: CompareState; diffStep: { seq: number; dir: 1 | -1 } } => ({
  diffStep: { seq: 0, dir: 1 },
  compare: {
    open: false,
    mode: 'plan',
    planB: 'none',
    profileB: null,
    overridesB: {},
    leafB: null,
    diff: false,
  },
});

/** Side B of a comparison: its own leaf (leaf mode), plan, profile and overrides. */
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
    setProfileB: (profileB) => patch({ profileB }),
    setOverrideB: (turnId, o) =>
      set((s) => {
        const next = keyedCopy(s.compare.overridesB); // turn ids are ledger data: `__proto__` must stay a key
        if (o) next[turnId] = o;
        else delete next[turnId];
        return { compare: { ...s.compare, overridesB: next } };
      }),
    clearOverridesB: () => patch({ overridesB: {} }),
    setLeafB: (leafB) => patch({ leafB }),
    toggleDiff: (on) => set((s) => ({ compare: { ...s.compare, diff: on ?? !s.compare.diff } })),
    stepDiff: (dir) => set((s) => ({ diffStep: { seq: s.diffStep.seq + 1, dir } })),
  };
};
