import type {
  HomeInfo,
  LeafRequest,
  LeafView,
  ReadingProgress,
  SessionInfo,
  SessionKey,
  SessionSummary,
  ApiEvent,
  RecentFile,
  RecentFiles,
} from '../../shared/api';
import type { CapacityProfile, TurnOverride } from '../../shared/ledger-types';
import type { UrlState } from './url-state';

export type PanelName = 'warnings' | 'usage' | 'work' | 'plan' | 'keys' | 'cost';
export type PlanName = 'none' | 'auto';

/** Entries ↔ projected messages that are lit together (hover, or pinned by a click). */
export interface LinkHighlight {
  entries: string[];
  messages: number[];
  /** Set when the hovered entry is not model-visible: the one-word reason. */
  reason?: string | null;
  /** Lit from a projected message: the History pane scrolls its sources into view. */
  fromMessage?: boolean;
}

/** The library column: the home, its sessions, the filter. */
export interface LibrarySlice {
  home: HomeInfo | null;
  sessions: SessionSummary[];
  libraryError: string | null;
  filter: string;
  libraryLoaded: (home: HomeInfo, sessions: SessionSummary[]) => void;
  libraryFailed: (message: string) => void;
  /** A pushed library event: rows changed, added or removed. */
  applyLibraryEvent: (e: Extract<ApiEvent, { type: 'library' }>) => void;
  setFilter: (filter: string) => void;
}

/** The open session and its tree: cursor, folding, live state, the branch composer. */
/** What an `appended` event's delta changes in the open session's info. */
export type SessionAppendPatch = Pick<
  SessionInfo,
  | 'entryCount'
  | 'activeLeaf'
  | 'warningCount'
  | 'rowCount'
  | 'foldedRowCount'
  | 'laneCount'
  | 'leaves'
  | 'branchPoints'
  | 'usage'
> &
  Partial<Pick<SessionInfo, 'work'>>;

export interface SessionSlice {
  sessionKey: SessionKey | null;
  sessionInfo: SessionInfo | null;
  sessionError: string | null;
  progress: ReadingProgress | null;
  /** Cursor row of the tree. */
  selectedRow: number | null;
  foldAudit: boolean;
  /** Bumped when tree pages must be fetched again (reloads, appends without a delta). */
  treeVersion: number;
  /** Bumped by each append patched in from its delta (the tree patched its own rows already). */
  appendVersion: number;
  /** Row to bring into view (set by jumps; the tree clears it once scrolled). */
  scrollToRow: number | null;
  follow: boolean;
  /** The entry the branch composer is open under, if any. */
  composerFor: string | null;
  /** Unsent directives by `draftKey(session, parent)`: closing the composer keeps the text. */
  drafts: Record<string, string>;
  /** A just-branched entry to select once the tree shows it. */
  pendingSelect: string | null;

  /** Opens another session (or none): everything that belonged to the previous one is forgotten. */
  selectSession: (key: SessionKey | null) => void;
  /** Follows a link between sessions: opens `key` with `entryId` as the selected leaf (null: its active leaf). */
  openSessionAt: (key: SessionKey, entryId: string | null) => void;
  /** The first answer of `openSession`. */
  sessionOpened: (info: SessionInfo) => void;
  /** A live change re-read the session: new info, tree pages to fetch again. */
  sessionChanged: (info: SessionInfo) => void;
  /** An append patched in from its event's delta: counts and the active leaf, no re-open. */
  sessionAppended: (patch: SessionAppendPatch) => void;
  /** The first read's hash check found nothing: only the "checking" mark goes (SessionInfo.checkingHashes). */
  hashesChecked: () => void;
  sessionFailed: (message: string) => void;
  setProgress: (p: ReadingProgress | null) => void;
  /** Puts the cursor on a row (without selecting its entry), optionally scrolling it into view. */
  placeCursor: (row: number, reveal?: boolean) => void;
  revealRow: (row: number) => void;
  /** The tree scrolled to `scrollToRow`. */
  rowRevealed: () => void;
  /** Folds or unfolds audit runs. Rows renumber, so the cursor is dropped until the tree finds it again. */
  toggleFoldAudit: (on?: boolean) => void;
  toggleFollow: () => void;
  openComposer: (parentId: string) => void;
  closeComposer: () => void;
  setDraft: (parentId: string, text: string) => void;
  /** A branch was appended: select it now, keep it selected once the tree shows it, close the composer. */
  branched: (parentId: string, newId: string) => void;
  /** Takes the pending selection when the live event brought it (null otherwise). */
  takePendingSelect: (newIds: readonly string[]) => string | null;
}

/** The selected leaf, its plan and what the panes show of it. */
export interface LeafSlice {
  /** Selected leaf entry id; null = the session's active leaf. */
  leaf: string | null;
  leafView: LeafView | null;
  /** The request `leafView` answers (its chain is paged with the same one). */
  leafViewRequest: LeafRequest | null;
  /**
   * The view both panes last committed (null while no panes are drawn). Until it is `leafView`
   * the panes are still rendering the new one: what follows a view (the tree's turn markers, the
   * chart's check of its chain) waits for it, so its answers do not interrupt that render.
   */
  panesView: LeafView | null;
  leafLoading: boolean;
  leafError: string | null;
  plan: PlanName;
  profile: CapacityProfile;
  overrides: Record<string, TurnOverride>;
  /** Kinds filtered out of the History pane. */
  hiddenKinds: string[];
  hover: LinkHighlight | null;
  pinned: LinkHighlight | null;

  /** Time travel: `leaf` becomes the selected leaf; `row` (when given) the cursor. Drops the pin. */
  selectLeaf: (leaf: string | null, row?: number | null) => void;
  leafLoadStarted: () => void;
  /** The panes committed `view` (null: they draw none any more). */
  panesDrew: (view: LeafView | null) => void;
  leafLoaded: (view: LeafView, req: LeafRequest) => void;
  leafFailed: (message: string) => void;
  setPlan: (plan: PlanName) => void;
  setProfile: (patch: Partial<CapacityProfile>) => void;
  setOverride: (turnId: string, o: TurnOverride | null) => void;
  clearOverrides: () => void;
  toggleKind: (kind: string) => void;
  /** Every kind shown in History again. */
  showAllKinds: () => void;
  /** Ignored while something is pinned (the pin wins until unpinned). */
  setHover: (link: LinkHighlight | null) => void;
  pin: (link: LinkHighlight) => void;
  /** Pins `link`, or unpins when the same single entry/message is pinned already. */
  togglePin: (link: LinkHighlight) => void;
  /** Esc: nothing lit. */
  clearLinks: () => void;
}

export interface CompareState {
  open: boolean;
  /** 'plan': side B shows A's leaf; 'leaf': side B shows `leafB`. */
  mode: 'plan' | 'leaf';
  /** Side B's plan. */
  planB: PlanName;
  /** Side B's CapacityProfile; null = the same as A's. Always a valid profile (profile-rules.ts). */
  profileB: CapacityProfile | null;
  overridesB: Record<string, TurnOverride>;
  /** Side B's leaf in leaf mode; null = the active leaf. */
  leafB: string | null;
  diff: boolean;
}

/** Compare: side B (its own leaf, plan, profile and overrides) against the main selection. */
export interface CompareSlice {
  compare: CompareState;
  toggleCompare: (open?: boolean) => void;
  /** Leaf mode starts with B on `leafB` (the leaf A shows) unless B already has one. */
  setCompareMode: (mode: 'plan' | 'leaf', leafB?: string) => void;
  setPlanB: (plan: PlanName) => void;
  /** A valid profile for B, or null for A's. */
  setProfileB: (profile: CapacityProfile | null) => void;
  setOverrideB: (turnId: string, o: TurnOverride | null) => void;
  clearOverridesB: () => void;
  setLeafB: (leaf: string | null) => void;
  toggleDiff: (on?: boolean) => void;
  /** The last request to step through the diff's changes (the diff view follows `seq`). */
  diffStep: { seq: number; dir: 1 | -1 };
  /** Next (1) or previous (-1) change of the text diff: keys n / N, F7 / Shift+F7, the palette. */
  stepDiff: (dir: 1 | -1) => void;
}

/** Resizable panes beside the library (projected/compare takes the rest), in CSS pixels. */
export type PaneName = 'tree' | 'history';

/** Column widths, set by drag handles (or their arrow keys) and remembered across reloads. */
export interface LayoutSlice {
  /** The library (or search) column. */
  sidebarWidth: number;
  paneWidths: Record<PaneName, number>;
  setSidebarWidth: (px: number) => void;
  /** Sets one pane's width, clamped to what the pane allows, and remembers it. */
  setPaneWidth: (pane: PaneName, px: number) => void;
}

/** Drawer panels and overlays. */
export interface PanelsSlice {
  panels: Record<PanelName, boolean>;
  togglePanel: (p: PanelName, open?: boolean) => void;
  /** Esc: the topmost thing closes (keys overlay, palette, composer, search), else the pin. */
  escape: () => void;
}

/** What an export or copy did, shown where the user can see it (also when run from a key or the palette). */
export interface ExportNotice {
  text: string;
  error: boolean;
}

/** The context-over-time strip and the outcome of exports. */
export interface ContextSlice {
  chartOpen: boolean;
  exportNotice: ExportNotice | null;
  toggleChart: (open?: boolean) => void;
  /** The fate strip of the pinned History entry (docs/fate.md). */
  fateOpen: boolean;
  toggleFate: (open?: boolean) => void;
  setExportNotice: (notice: ExportNotice | null) => void;
}

/** What the search panel's filters hold ('' = any); dates are `YYYY-MM-DD` from date inputs. */
export interface SearchUiFilters {
  agent: string;
  cwd: string;
  /** An entry kind, or `audit` for every kind outside the story. */
  kind: string;
  from: string;
  to: string;
}

/** Search across the home or within the open session, and the command palette (§5). */
export interface SearchSlice {
  searchOpen: boolean;
  /** `projected`: what the model was sent (the selected leaf's chain, at a leaf or every turn end). */
  searchScope: 'home' | 'session' | 'projected';
  searchQuery: string;
  searchFilters: SearchUiFilters;
  /** Bumped by every open: the search field takes the focus again. */
  searchFocusTick: number;
  paletteOpen: boolean;
  /** Opens search (within the session only when one is open) and focuses its field. */
  openSearch: (scope: 'home' | 'session') => void;
  /** Back to the library; the query and filters are kept. */
  closeSearch: () => void;
  setSearchQuery: (q: string) => void;
  setSearchFilters: (patch: Partial<SearchUiFilters>) => void;
  setSearchScope: (scope: 'home' | 'session' | 'projected') => void;
  togglePalette: (open?: boolean) => void;
}

/** Files opened by path (docs/open-files.md). */
export interface FilesSlice {
  /** The Recent list, newest first, each checked when listed. */
  recentFiles: RecentFile[];
  /** The backend opens files by path (the desktop app); serve mode opens only `--file` ones. */
  openByPath: boolean;
  /** What opening a file said (a refusal, or how to open one in a browser); null: nothing to say. */
  fileNotice: string | null;
  recentLoaded: (r: RecentFiles) => void;
  showFileNotice: (message: string | null) => void;
}

/** The URL's half of the store. */
export interface UrlSlice {
  /** Restores the selection from a parsed URL (load, Back/Forward, a pasted link). */
  applyUrl: (u: UrlState) => void;
}

/** The whole UI state: one store made of slices (zustand's slices pattern); add a slice for new concerns (search, palette). */
export type AppState = LibrarySlice &
  SessionSlice &
  LeafSlice &
  CompareSlice &
  PanelsSlice &
  UrlSlice &
  ContextSlice &
  LayoutSlice &
  SearchSlice &
  FilesSlice;
