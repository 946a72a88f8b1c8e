import { create } from 'zustand';
import type { HomeInfo, LeafRequest, LeafView, SessionInfo, SessionKey, SessionSummary } from '../../shared/api';
import { type CapacityProfile, DEFAULT_PROFILE, type TurnOverride } from '../../shared/ledger-types';
import type { UrlState } from './url-state';

export type PanelName = 'warnings' | 'usage' | 'work' | 'plan' | 'keys';

/** Entries ↔ projected messages that are lit together (hover, or pinned by a click). */
export interface LinkHighlight {
  entries: string[];
  messages: number[];
  /** Set when the hovered entry is not model-visible: the one-word reason. */
  reason?: string | null;
  /** Lit from a projected message: the History pane scrolls its sources into view. */
  fromMessage?: boolean;
}

export interface CompareState {
  open: boolean;
  mode: 'plan' | 'leaf';
  /** Side B's plan in plan mode (side A is the main selection). */
  planB: 'none' | 'auto';
  overridesB: Record<string, TurnOverride>;
  /** Side B's leaf in leaf mode; null = the active leaf. */
  leafB: string | null;
  diff: boolean;
}

export interface AppState {
  home: HomeInfo | null;
  sessions: SessionSummary[];
  libraryError: string | null;
  filter: string;
  sessionKey: SessionKey | null;
  sessionInfo: SessionInfo | null;
  sessionError: string | null;
  progress: { bytesRead: number; bytesTotal: number } | null;
  /** Selected leaf entry id; null = the session's active leaf. */
  leaf: string | null;
  leafView: LeafView | null;
  /** The request `leafView` answers (its chain is paged with the same one). */
  leafViewRequest: LeafRequest | null;
  leafLoading: boolean;
  leafError: string | null;
  /** Cursor row of the tree. */
  selectedRow: number | null;
  foldAudit: boolean;
  /** Bumped when tree pages must be fetched again (live appends, reloads). */
  treeVersion: number;
  hover: LinkHighlight | null;
  pinned: LinkHighlight | null;
  plan: 'none' | 'auto';
  profile: CapacityProfile;
  overrides: Record<string, TurnOverride>;
  compare: CompareState;
  follow: boolean;
  panels: Record<PanelName, boolean>;
  sidebarWidth: number;
  composerFor: string | null;
  /** A just-branched entry to select once the tree shows it. */
  pendingSelect: string | null;
  hiddenKinds: string[];
  /** Row to bring into view (set by jumps; the tree clears it). */
  scrollToRow: number | null;

  set: (patch: Partial<AppState>) => void;
  selectSession: (key: SessionKey | null) => void;
  selectLeaf: (leaf: string | null, row?: number | null) => void;
  togglePanel: (p: PanelName, open?: boolean) => void;
  setOverride: (turnId: string, o: TurnOverride | null) => void;
  setCompare: (patch: Partial<CompareState>) => void;
  applyUrl: (u: UrlState) => void;
}

const initial = () => ({
  home: null,
  sessions: [],
  libraryError: null,
  filter: '',
  sessionKey: null,
  sessionInfo: null,
  sessionError: null,
  progress: null,
  leaf: null,
  leafView: null,
  leafViewRequest: null,
  leafLoading: false,
  leafError: null,
  selectedRow: null,
  foldAudit: false,
  treeVersion: 0,
  hover: null,
  pinned: null,
  plan: 'auto' as const,
  profile: DEFAULT_PROFILE,
  overrides: {},
  compare: { open: false, mode: 'plan' as const, planB: 'none' as const, overridesB: {}, leafB: null, diff: false },
  follow: false,
  panels: { warnings: false, usage: false, work: false, plan: false, keys: false },
  sidebarWidth: 280,
  composerFor: null,
  pendingSelect: null,
  hiddenKinds: [],
  scrollToRow: null,
});

export const useAppStore = create<AppState>()((set) => ({
  ...initial(),
  set: (patch) => set(patch),
  selectSession: (key) =>
    set((s) =>
      s.sessionKey === key
        ? {}
        : {
            sessionKey: key,
            sessionInfo: null,
            sessionError: null,
            leaf: null,
            leafView: null,
            leafError: null,
            selectedRow: null,
            hover: null,
            pinned: null,
            overrides: {},
            composerFor: null,
            compare: { ...s.compare, leafB: null, overridesB: {} },
          },
    ),
  selectLeaf: (leaf, row) =>
    set((s) => ({
      leaf,
      selectedRow: row === undefined ? s.selectedRow : row,
      pinned: null,
      composerFor: s.composerFor && s.composerFor !== leaf ? null : s.composerFor,
    })),
  togglePanel: (p, open) => set((s) => ({ panels: { ...s.panels, [p]: open ?? !s.panels[p] } })),
  setOverride: (turnId, o) =>
    set((s) => {
      const next = { ...s.overrides };
      if (o) next[turnId] = o;
      else delete next[turnId];
      return { overrides: next };
    }),
  setCompare: (patch) => set((s) => ({ compare: { ...s.compare, ...patch } })),
  applyUrl: (u) =>
    set((s) => ({
      ...(s.sessionKey !== u.session
        ? {
            sessionKey: u.session,
            sessionInfo: null,
            sessionError: null,
            leafView: null,
            selectedRow: null,
            overrides: {},
          }
        : {}),
      leaf: u.leaf,
      plan: u.plan,
      profile: u.profile,
    })),
}));

/** Back to the first state (tests). */
export function resetAppStore(): void {
  useAppStore.setState(initial());
}

/** The part of the state the URL carries. */
export function urlStateOf(s: AppState): UrlState {
  return { session: s.sessionKey, leaf: s.leaf, plan: s.plan, profile: s.profile };
}
