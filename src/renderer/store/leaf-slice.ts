import type { StateCreator } from 'zustand';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import type { AppState, LeafSlice, LinkHighlight } from './types';
import { keyedCopy } from '../../shared/own-key';

export const leafInitial = () => ({
  leaf: null,
  leafView: null,
  leafViewRequest: null,
  panesView: null,
  leafLoading: false,
  leafError: null,
  plan: 'auto' as const,
  profile: DEFAULT_PROFILE,
  overrides: {},
  hiddenKinds: [],
  hover: null,
  pinned: null,
});

/** What a newly opened session starts without (the plan and profile stay: they are the user's choice). */
export const leafResetForSession = () => ({
  leaf: null,
  leafView: null,
  leafViewRequest: null,
  panesView: null,
  leafError: null,
  overrides: {},
  // The last session's filter could hide every kind this one has (History empty, no chip lit).
  hiddenKinds: [],
  hover: null,
  pinned: null,
});

/**
 * The same link is pinned already (a second click unpins): same side, same entries and
 * messages. A message's own pin and a link to one of its sources are different links.
 */
const samePin = (cur: LinkHighlight | null, next: LinkHighlight): boolean =>
  !!cur &&
  !!cur.fromMessage === !!next.fromMessage &&
  cur.messages.join(',') === next.messages.join(',') &&
  cur.entries.join('\n') === next.entries.join('\n');

/** The selected leaf, its plan, the History filter and the hover/pin links. */
export const createLeafSlice: StateCreator<AppState, [], [], LeafSlice> = (set) => ({
  ...leafInitial(),
  selectLeaf: (leaf, row) =>
    set((s) => ({
      leaf,
      selectedRow: row === undefined ? s.selectedRow : row,
      pinned: null,
      composerFor: s.composerFor && s.composerFor !== leaf ? null : s.composerFor,
    })),
  leafLoadStarted: () => set({ leafLoading: true }),
  leafLoaded: (view, req) => set({ leafView: view, leafViewRequest: req, leafLoading: false, leafError: null }),
  leafFailed: (message) => set({ leafLoading: false, leafError: message }),
  panesDrew: (view) => set((s) => (s.panesView === view ? {} : { panesView: view })),
  setPlan: (plan) => set({ plan }),
  setProfile: (patch) => set((s) => ({ profile: { ...s.profile, ...patch } })),
  setOverride: (turnId, o) =>
    set((s) => {
      const next = keyedCopy(s.overrides); // turn ids are ledger data: `__proto__` must stay a key
      if (o) next[turnId] = o;
      else delete next[turnId];
      return { overrides: next };
    }),
  clearOverrides: () => set({ overrides: {} }),
  toggleKind: (kind) =>
    set((s) => ({
      hiddenKinds: s.hiddenKinds.includes(kind) ? s.hiddenKinds.filter((k) => k !== kind) : [...s.hiddenKinds, kind],
    })),
  showAllKinds: () => set({ hiddenKinds: [] }),
  // A pin wins over hover until it is unpinned: while pinned, hovering lights nothing else.
  setHover: (link) => set((s) => (s.pinned ? {} : { hover: link })),
  pin: (link) => set({ pinned: link, hover: null }),
  togglePin: (link) => set((s) => ({ pinned: samePin(s.pinned, link) ? null : link, hover: null })),
  clearLinks: () => set({ hover: null, pinned: null }),
});

/**
 * The panes are still drawing a newer view than the one they show: requests that follow a view
 * (and whose answers draw again) wait until they have committed it.
 */
export const panesBehind = (s: Pick<AppState, 'panesView' | 'leafView'>): boolean =>
  s.panesView !== null && s.panesView !== s.leafView;
