import type { StateCreator } from 'zustand';
import type { AppState, LibrarySlice } from './types';

export const libraryInitial = () => ({
  home: null,
  sessions: [],
  libraryError: null,
  filter: '',
});

/** The library column's state and intents. */
export const createLibrarySlice: StateCreator<AppState, [], [], LibrarySlice> = (set) => ({
  ...libraryInitial(),
  libraryLoaded: (home, sessions) => set({ home, sessions, libraryError: null }),
  libraryFailed: (message) => set({ libraryError: message }),
  applyLibraryEvent: (e) =>
    set((s) => {
      const removed = new Set(e.removed);
      const changed = new Map(e.changed.map((c) => [c.key, c]));
      const kept = s.sessions.filter((c) => !removed.has(c.key));
      const next = kept.map((c) => changed.get(c.key) ?? c);
      for (const c of e.changed) if (!kept.some((k) => k.key === c.key)) next.push(c);
      return { sessions: next };
    }),
  setFilter: (filter) => set({ filter }),
});
