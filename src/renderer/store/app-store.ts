import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { compareInitial, createCompareSlice } from './compare-slice';
import { createFilesSlice, filesInitial } from './files-slice';
import { contextInitial, createContextSlice } from './context-slice';
import { createLayoutSlice, layoutInitial } from './layout-slice';
import { createLeafSlice, leafInitial } from './leaf-slice';
import { createLibrarySlice, libraryInitial } from './library-slice';
import { createPanelsSlice, panelsInitial } from './panels-slice';
import { createSearchSlice, searchInitial } from './search-slice';
import { createSessionSlice, sessionInitial } from './session-slice';
import type { AppState } from './types';
import { createUrlSlice, type UrlState } from './url-slice';
import { URL_PANELS } from './url-state';

export type { AppState, CompareState, LinkHighlight, PanelName, PlanName } from './types';

/**
 * The explorer's one store, made of slices (zustand's slices pattern). State changes only
 * through the slices' named intents, which keep their invariants in one place (e.g. folding
 * drops the cursor); there is no generic `set` for components.
 */
const store: StoreApi<AppState> = createStore<AppState>()((...a) => ({
  ...createLibrarySlice(...a),
  ...createSessionSlice(...a),
  ...createLeafSlice(...a),
  ...createCompareSlice(...a),
  ...createPanelsSlice(...a),
  ...createUrlSlice(...a),
  ...createLayoutSlice(...a),
  ...createContextSlice(...a),
  ...createSearchSlice(...a),
  ...createFilesSlice(...a),
}));

/** Reads a slice of the store in a component (re-renders when it changes). */
export function useAppStore<T>(selector: (s: AppState) => T): T {
  return useStore(store, selector);
}
/** The current state, intents included, outside React. */
useAppStore.getState = store.getState;
/** Listens to every change (URL sync). */
useAppStore.subscribe = store.subscribe;

/** Back to the first state (tests). */
export function resetAppStore(): void {
  store.setState({
    ...libraryInitial(),
    ...sessionInitial(),
    ...leafInitial(),
    ...compareInitial(),
    ...panelsInitial(),
    ...layoutInitial(),
    ...contextInitial(),
    ...searchInitial(),
    ...filesInitial(),
  });
}

/** The part of the state the URL carries. */
export function urlStateOf(s: AppState): UrlState {
  const { open, ...c } = s.compare;
  return {
    session: s.sessionKey,
    leaf: s.leaf,
    plan: s.plan,
    profile: s.profile,
    overrides: s.overrides,
    panels: URL_PANELS.filter((p) => s.panels[p]),
    compare: open ? { ...c, leafB: c.mode === 'leaf' ? c.leafB : null } : null,
  };
}
