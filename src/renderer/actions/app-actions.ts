/** Search, the library filter, the palette, the keys overlay and Esc. */
import type { Action } from './action';
import { hasOpenSession } from './enabled';

export const appActions: readonly Action[] = [
  {
    id: 'search.home',
    title: 'Search every session of the home',
    keys: ['Mod+Shift+F'],
    run: ({ state }) => state.openSearch('home'),
  },
  {
    id: 'search.session',
    title: 'Search within the open session',
    keys: ['Mod+F'],
    run: ({ state }) => state.openSearch('session'),
    enabled: hasOpenSession,
  },
  {
    id: 'library.filter',
    title: 'Filter sessions by title',
    keys: ['/'],
    run: ({ state }) => {
      const focus = () => document.getElementById('library-filter')?.focus();
      if (!state.searchOpen) return focus();
      // The filter lives in the library: search gives the column back, then its field takes the focus.
      state.closeSearch();
      requestAnimationFrame(focus);
    },
  },
  {
    id: 'palette.open',
    title: 'Command palette',
    keys: ['Mod+K'],
    run: ({ state }) => state.togglePalette(),
  },
  {
    id: 'keys.overlay',
    title: 'Keyboard shortcuts',
    keys: ['?'],
    run: ({ state }) => state.togglePanel('keys'),
  },
  {
    id: 'escape',
    title: 'Close the overlay, composer or search; unpin',
    keys: ['Escape'],
    run: ({ state }) => state.escape(),
  },
];
