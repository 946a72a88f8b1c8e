import type { StateCreator } from 'zustand';
import type { AppState, SearchSlice, SearchUiFilters } from './types';

export const NO_SEARCH_FILTERS: SearchUiFilters = { agent: '', cwd: '', kind: '', from: '', to: '' };

export const searchInitial = (): Pick<
  SearchSlice,
  'searchOpen' | 'searchScope' | 'searchQuery' | 'searchFilters' | 'searchFocusTick' | 'paletteOpen'
> => ({
  searchOpen: false,
  searchScope: 'home',
  searchQuery: '',
  searchFilters: NO_SEARCH_FILTERS,
  searchFocusTick: 0,
  paletteOpen: false,
});

/**
 * Search (it takes the library's place while open) and the command palette. The query and
 * filters outlive closing: Esc returns to the library, the next Ctrl/⌘+F finds them again.
 */
export const createSearchSlice: StateCreator<AppState, [], [], SearchSlice> = (set) => ({
  ...searchInitial(),
  // Searching within a session needs one open; without one the search covers the home.
  openSearch: (scope) =>
    set((s) => ({
      searchOpen: true,
      searchScope: scope === 'session' && s.sessionKey !== null ? 'session' : 'home',
      searchFocusTick: s.searchFocusTick + 1,
      paletteOpen: false,
    })),
  closeSearch: () => set({ searchOpen: false }),
  setSearchQuery: (q) => set({ searchQuery: q }),
  setSearchFilters: (patch) => set((s) => ({ searchFilters: { ...s.searchFilters, ...patch } })),
  setSearchScope: (scope) => set((s) => ({ searchScope: scope !== 'home' && s.sessionKey !== null ? scope : 'home' })),
  togglePalette: (open) => set((s) => ({ paletteOpen: open ?? !s.paletteOpen })),
});
