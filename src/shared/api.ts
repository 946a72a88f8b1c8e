/**
 * The one API between the explorer's main side (Electron main process, or the
 * loopback server) and its renderer. Requests are validated at runtime against
 * `api-schemas.ts`; this file is the static half of the same contract.
 *
 * Transports: Electron IPC (preload bridge, `window.vak`) and a WebSocket at
 * `/api/ws` in serve mode. Both carry exactly these methods and events.
 */
import type {
  Fidelity,
  Json,
  LedgerWarning,
  PlanRow,
  ProjectedMessage,
  Projection,
  UsageTotals,
  WorkItem,
} from './ledger-types';
import type { StripSegment } from './plan-strip';
import type { FeatureApiMethods } from './api-features';

import type { LeafRequest, SessionKey } from './leaf-request';

export type { LeafRequest, SessionKey } from './leaf-request';

export interface HomeInfo {
  /** Absolute path of the home being shown. */
  home: string;
  /** True when `$VAK_HOME` had no sessions and the bundled demo home is shown. */
  isDemo: boolean;
  /** What the UI shows as the home's name ("~/.vak", "Demo home (bundled)"). */
  label: string;
  /** The user's own home folder: only paths under it are shown as `~/…` (another user's stay whole). */
  userHome?: string;
}

export interface SessionSummary {
  key: SessionKey;
  agent: string;
  cwdHash: string;
  /** The header's `cwd` (the real path), or null when the head could not be read. */
  cwd: string | null;
  /** §1: the folder name is not the FNV-1a 64 of the header's cwd (a warning, not an error). */
  cwdMismatch: boolean;
  sessionId: string;
  /** First directive's text, on one line, clipped. */
  title: string | null;
  model: string | null;
  firstTs: string | null;
  lastTs: string | null;
  /** Exact once the session was opened; an estimate from size and head otherwise. */
  entries: number;
  entriesExact: boolean;
  /** Branch points; null until the session was opened. */
  branches: number | null;
  /** Reader warnings; null until opened (the head and tail alone cannot tell). */
  warnings: number | null;
  /**
   * The file does not end in `\n` (seen from its last byte alone): a torn tail, or, while
   * `lock` is 'held', a write in progress. Shown before the session is opened; `warnings` says more after.
   */
  tailUnterminated: boolean;
  sizeBytes: number;
  mtimeMs: number;
  /**
   * Whether an agent holds the flock on the file right now, read from the kernel's lock
   * table (/proc/locks) without touching the lock; 'unknown' where there is no such table.
   */
  lock: LockState;
  /**
   * Why the file cannot be shown as a session (not a regular file, a link to something
   * that is not a ledger, unreadable); null for every readable session. Listed, never opened.
   */
  unreadable: string | null;
  parentSession: { sessionId: string; entryId: string; key: SessionKey | null } | null;
  /**
   * A file the user opened by path (its key is `opened/<n>.jsonl`): the absolute path as given.
   * Absent for a session of the home. `agent` and `cwdHash` are then empty.
   */
  openedPath?: string;
}

/** An agent's flock on a session file, as the kernel's lock table shows it. */
export type LockState = 'held' | 'free' | 'unknown';

export interface HeaderInfo {
  /** The header entry's id (its full contract, system prompt and tools, comes from `getEntry`). */
  entryId: string;
  sessionId: string | null;
  model: string | null;
  provider: string | null;
  cwd: string | null;
  appVersion: string | null;
  permissionMode: string | null;
}

export interface ChildRunLink {
  entryId: string;
  childSessionId: string;
  agent: string;
  outcome: string;
  key: SessionKey | null;
}

export interface SessionInfo {
  key: SessionKey;
  summary: SessionSummary;
  header: HeaderInfo | null;
  entryCount: number;
  activeLeaf: string | null;
  warningCount: number;
  branchPoints: number;
  leaves: number;
  /** Rows of the tree with and without folding of audit runs. */
  rowCount: number;
  foldedRowCount: number;
  laneCount: number;
  usage: { activeChain: UsageTotals; allBranches: UsageTotals };
  /** Work items folded over the active chain. */
  work: WorkItem[];
  childRuns: ChildRunLink[];
  /** Times the file broke append-only while open (shrank or rewritten) and was reloaded. */
  appendOnlyBreaks: { at: string; reason: 'shrunk' | 'rewritten' }[];
  /**
   * Non-null while a big session's first open is still reading: every figure above is of the
   * bytes read so far, and the rest arrives as 'appended' session events (with `reading` on
   * each, null on the last). Search, cost, export and a branch wait for the whole file.
   */
  reading: ReadingProgress | null;
  /**
   * The hash chain of a big session's first read is still being checked (it is checked after the
   * read, so the first answers need not wait for it): `warningCount` and the rows' marks lack any
   * hash_mismatch until a 'checked' session event says it is done (`getWarnings` waits for it).
   */
  checkingHashes: boolean;
  /**
   * The active leaf's row in the tree, unfolded and with audit runs folded (absent without
   * entries): the tree opens on it without first asking `findRow`.
   */
  activeLeafRows?: { row: number; foldedRow: number };
}

/** How far the first read of a session has come (bytes of the file as it was measured then). */
export interface ReadingProgress {
  bytesRead: number;
  bytesTotal: number;
}

export type EntryRole = 'user' | 'assistant' | 'tool';

/** One drawn row of the session tree. */
export interface TreeRow {
  row: number;
  /** The entry's index in file order (0-based). */
  index: number;
  id: string;
  parentId: string | null;
  kind: string;
  role: EntryRole | null;
  control: boolean;
  line: number;
  ts: string;
  /** One line of text: the message's first text, a tool name, an audit summary. */
  text: string;
  children: number;
  isBranchPoint: boolean;
  isLeaf: boolean;
  isActiveLeaf: boolean;
  isOrphan: boolean;
  hasWarning: boolean;
  /**
   * Lane (column) of this entry's dot. A line enters the dot from above when the
   * entry has a parent (not for roots and orphans) and leaves it downward when a
   * child continues the lane (`children > forkTo.length`).
   */
  lane: number;
  /** Lanes whose vertical line passes through this row, top to bottom (not counting `lane`). */
  through: number[];
  /** The parent's lane when it differs from `lane` (the line came down `lane` from a fork there), else null. */
  forkFrom: number | null;
  /** Lanes of children that branch off here: draw from the dot to that lane at the row's bottom edge. */
  forkTo: number[];
  /** A folded run of audit entries: this row stands for `count` entries starting at `index`. */
  folded: { count: number; kinds: string[] } | null;
}

export interface TreeRowsResult {
  total: number;
  laneCount: number;
  rows: TreeRow[];
}

export interface EntryDetail {
  id: string;
  index: number;
  line: number;
  offset: number;
  length: number;
  kind: string;
  /**
   * A slice of the line's bytes as text: `sliceStart … sliceEnd` of the line's `length`
   * bytes, at most `maxBytes` (default 256 KiB, at most MAX_SLICE_BYTES), never splitting
   * a UTF-8 sequence. A big line is read in slices: ask again with `sliceStart: sliceEnd`.
   */
  raw: string;
  /** Byte of the line where `raw` starts (the request's `sliceStart`, default 0). */
  sliceStart: number;
  /** Byte of the line where `raw` ends; less than `length` while more of the line remains. */
  sliceEnd: number;
  /** True when `raw` is not the whole line (`sliceStart > 0` or `sliceEnd < length`). */
  truncated: boolean;
  /** The parsed entry, or null when `raw` is not the whole line. */
  json: Json | null;
  /**
   * Why a known kind's payload is not the shape of its kind (the core's `malformed` case,
   * shown raw with this note), or null when it is.
   */
  problem: string | null;
}

/**
 * Largest slice of a line one reply carries (`getEntry`, `getLine`): bigger lines are paged,
 * so one request never makes the server hold or send more than this (JSON escaping aside).
 */
export const MAX_SLICE_BYTES = 2 * 1024 * 1024;

/**
 * Any physical line by its byte offset, whether or not it is an entry: what a
 * warning points at (a torn line, an invalid entry, the unterminated tail).
 */
export interface RawLine {
  offset: number;
  /** Bytes up to (not including) the `\n`; null when clipped before the `\n` was found. */
  length: number | null;
  /** The bytes as text, clipped to `maxBytes` (default 64 KiB); invalid UTF-8 shows as U+FFFD. */
  text: string;
  /** Bytes of the file `text` covers from `offset`: the next slice of a longer line starts at `offset + bytes`. */
  bytes: number;
  validUtf8: boolean;
  /** False for the file's last line when it has no `\n` yet. */
  terminated: boolean;
  truncated: boolean;
}

/** Why an entry of the chain is not in the projected context (ledger vocabulary: see ledger-types). */
export type { HiddenReason } from './ledger-types';
import type { HiddenReason } from './ledger-types';

export interface ChainItem {
  /** Position in the chain (0 = root), whatever window or filter it came in. */
  pos: number;
  id: string;
  index: number;
  kind: string;
  role: EntryRole | null;
  control: boolean;
  line: number;
  ts: string;
  text: string;
  /** The turn it belongs to (after the newest reset), or null. */
  turnId: string | null;
  /** Indices into the projection's messages that name this entry in `source_ids`. */
  projectedAs: number[];
  /** The fidelity of each of those messages (same order), whether or not its page was fetched. */
  projectedFidelity: Fidelity[];
  /** Why the entry reaches the model as no message; set only when `projectedAs` is empty. */
  hidden: HiddenReason | null;
}

/** A packet (§3 compaction with `packet`) the plan could put a turn behind. */
export interface PacketOption {
  packet_id: string;
  first_turn_id: string;
  last_turn_id: string;
}

/**
 * One closed turn of a leaf's plan: its §6 plan row, and what it could be forced to instead —
 * its turn card, or one of the packets covering it (what the turns panel offers).
 */
export interface PlanTurn extends PlanRow {
  /** Position in the plan (0 = the oldest closed turn after the newest reset). */
  index: number;
  /** The directive's text as one line, clipped (entry-preview.ts): what the turns panel names the turn by. */
  directive: string;
  hasCard: boolean;
  /** Usable packets (§6) whose range holds the turn, in chain order. */
  packets: PacketOption[];
}

/** Most plan turns one `getPlanTurns` answer carries. */
export const MAX_PLAN_TURNS = 1000;

/**
 * Turns of a leaf's plan: a window `start … start + count - 1` (count ≤ MAX_PLAN_TURNS), or the
 * turns named by `ids` (at most MAX_PLAN_TURNS; ids that are no closed turn of the plan are left out).
 */
export type PlanTurnsRequest = LeafRequest & ({ start: number; count: number } | { ids: string[] });

/** `getPlanTurns`' answer: the turns asked for, in plan order, and how many closed turns the plan has. */
export interface PlanTurns {
  total: number;
  turns: PlanTurn[];
}

/**
 * The plan at a glance, the same size whatever the number of turns: its closed turns counted
 * and drawn as the strip. The turns themselves come from `getPlanTurns` (a window, or by id).
 */
export interface PlanOutline {
  /** Closed turns of the plan (after the newest reset). */
  turns: number;
  /** Closed turns at each fidelity. */
  full: number;
  card: number;
  packet: number;
  /** The plan strip: consecutive turns merged into at most STRIP_SEGMENTS segments, overrides marked. */
  strip: StripSegment[];
}

/** A leaf view's projection: the §9 shape without its per-turn `plan` (see LeafView.plan). */
export type LeafProjection = Omit<Projection, 'plan'>;

/** Most chain items a view or a page carries; `getChainItems` pages through the rest. */
export const CHAIN_WINDOW = 200;
export const MAX_CHAIN_ITEMS = 2000;

/**
 * Both panes for one leaf. Long strings in `projection` are clipped (see `clipped`).
 * `chain` is a window of the chain root → leaf: items `chainStart … chainStart + chain.length - 1`
 * of `chainLength`, by default the last SCREEN_CHAIN (ending at the leaf).
 */
export interface LeafView {
  leaf: string;
  chainLength: number;
  chainStart: number;
  chain: ChainItem[];
  /** Entries of the whole chain per kind name. */
  kindCounts: Record<string, number>;
  /** Chain position of every entry named in a projected message's `source_ids`. */
  sourcePositions: Record<string, number>;
  /**
   * The plan counted and as a strip (bounded: an answer follows the screen, not the
   * number of turns); its rows and what each turn could be forced to come from `getPlanTurns`.
   */
  plan: PlanOutline;
  /**
   * The projection: token totals, notes, system and tools (its per-turn plan is `plan` above). With
   * `pagedMessages` in the request its `messages` is empty and the first screen comes in `messagePages`;
   * without it, every message (the old reply, too large for a 100 MB session's active leaf: prefer paging).
   */
  projection: LeafProjection;
  /** Indices of projected messages whose content was clipped for transport (of `projection.messages`). */
  clipped: number[];
  /** Messages of the whole projection, whatever this reply carries of them. */
  messageCount: number;
  /**
   * With `pagedMessages`: the first screen of the projected pane — messages 0 … SCREEN_HEAD-1 and
   * the last SCREEN_TAIL (the open turn and the tail) — as one page, or two when they do not touch.
   * The rest comes from `getProjectedMessages`. Empty without `pagedMessages`.
   */
  messagePages: ProjectedMessagesPage[];
}

/** Projected messages `getLeafView` sends first (paged): the head of the pane ... */
export const SCREEN_HEAD = 30;
/**
 * ... and its end (the open turn and the tail, what a user looks at first on a live session): the
 * pane opens there, and shows ~8 messages with 6 drawn beyond its edge (a tail of 10 made the first
 * screen ask for a page at once, and draw twice).
 */
export const SCREEN_TAIL = 20;
/** Most projected messages one `getProjectedMessages` page carries. */
export const MAX_PROJECTED_PAGE = 500;
/**
 * Chain items `getLeafView` sends first: the History pane's first screen at the leaf (~30 rows
 * in view and those drawn beyond its edge), not a whole CHAIN_WINDOW — the answer a click waits
 * for follows what is visible. The rest comes from `getChainItems` as the pane scrolls.
 */
export const SCREEN_CHAIN = 80;

/** `getLeafView` with the projected pane paged (`pagedMessages: true`) or whole (absent/false). */
export interface LeafViewRequest extends LeafRequest {
  pagedMessages?: boolean;
}

/** A window of a leaf's projected messages: `start … start + count - 1` (count ≤ MAX_PROJECTED_PAGE). */
export interface ProjectedMessagesRequest extends LeafRequest {
  start: number;
  count: number;
}

/** Projected messages `start … start + messages.length - 1` of a leaf's projection, clipped for transport. */
export interface ProjectedMessagesPage {
  start: number;
  messages: ProjectedMessage[];
  /** Indices (in the whole projection) of this page's messages whose content was clipped. */
  clipped: number[];
  /** Chain position of every entry named in this page's `source_ids`. */
  sourcePositions: Record<string, number>;
}

/** `getProjectedMessages`' answer: one page, and the projection's message count. */
export interface ProjectedMessages extends ProjectedMessagesPage {
  total: number;
}

/** A window of a leaf's chain, optionally only entries of some kinds. */
export interface ChainItemsRequest extends LeafRequest {
  /** First row: a chain position, or with `kinds` a position among the matching entries. */
  start: number;
  /** At most MAX_CHAIN_ITEMS. */
  count: number;
  /** Only entries of these kind names (all kinds when absent). */
  kinds?: string[];
}

export interface ChainItems {
  chainLength: number;
  /** Rows to page through: entries matching `kinds`, or `chainLength` without it. */
  total: number;
  start: number;
  items: ChainItem[];
}

export interface BranchResult {
  id: string;
  parentId: string;
  line: number;
  offset: number;
}

/** §7: append one directive under `parentId`. */
export interface BranchRequest {
  key: SessionKey;
  parentId: string;
  text: string;
  /**
   * A UUID the client chose for this submission. The backend appends at most once per key
   * (per session, while it runs): a repeat is answered with the first result, not appended.
   * Keys are compared exactly as sent, byte for byte: the same UUID in upper and in lower
   * case is two keys (send one spelling; a client that draws `crypto.randomUUID()` does).
   */
  idempotencyKey: string;
}

export type Subscription = { topic: 'library' } | { topic: 'session'; key: SessionKey };

/** New tree rows an `appended` event carries at most; past this it carries counts only (page with getTreeRows). */
export const MAX_DELTA_ROWS = 200;

/**
 * What an append changed, so a client patches what it holds instead of opening the session
 * again. Rows already drawn never move (the layout only places new entries), but a new
 * entry's lane line can pass through earlier rows: those are in `redraw`.
 */
export interface SessionDelta {
  /** Index (file order) of the first new entry: the rows of new entries start at its row. */
  firstNewIndex: number;
  newEntries: number;
  rowCount: number;
  foldedRowCount: number;
  laneCount: number;
  /** The new rows, laid out (unfolded), or null when more than MAX_DELTA_ROWS arrived. */
  rows: TreeRow[] | null;
  /** The folded view's rows from `foldedFirstRow` on (the last folded row may have grown), or null likewise. */
  foldedRows: TreeRow[] | null;
  foldedFirstRow: number;
  /** Existing rows `[start, end)` to fetch again (a new line passes through them, a leaf became a parent). */
  redraw: { start: number; end: number };
  redrawFolded: { start: number; end: number };
  /** Leaves that are new, and former leaves that got a child (ids; none on a step of a first read). */
  addedLeaves: string[];
  endedLeaves: string[];
  /** Leaves of the session now (SessionInfo.leaves). */
  leafCount: number;
  warningCount: number;
  /** Entries that became branch points (a second child arrived): SessionInfo.branchPoints grows by this. */
  branchPointsAdded: number;
  /** SessionInfo.usage now (the active chain is the new active leaf's). */
  usage: { activeChain: UsageTotals; allBranches: UsageTotals };
  /** SessionInfo.work now, or null when it cannot have changed (no work entry came, the active chain only grew). */
  work: WorkItem[] | null;
}

export type ApiEvent =
  | { type: 'library'; changed: SessionSummary[]; removed: SessionKey[] }
  | {
      type: 'session';
      key: SessionKey;
      change: 'appended' | 'reloaded' | 'removed' | 'checked';
      /** For 'checked': the hash mismatches the check found (none: nothing else changed). */
      hashMismatches?: number;
      entryCount: number;
      activeLeaf: string | null;
      /** Ids of the entries that arrived (for 'appended'). */
      newIds: string[];
      reason?: string;
      /** For 'appended': what changed, to patch caches with (absent on other changes). */
      delta?: SessionDelta;
      /**
       * Present while, or when, a first open reads in steps: how far it has come, and null on
       * the step that read to the end (the session's figures are then whole: ask openSession).
       */
      reading?: ReadingProgress | null;
    }
  | { type: 'progress'; key: SessionKey; bytesRead: number; bytesTotal: number }
  /**
   * The reader (the ledger core's worker) stopped: `restarted` (requests that were running failed
   * with `reason`; ask again) or `stopped` (it stopped too often and was not restarted).
   */
  | { type: 'reader'; change: 'restarted' | 'stopped'; reason: string }
  /** The user's `prices.json` was created, edited or removed (to library subscribers): ask for costs again. */
  | { type: 'prices' }
  /**
   * Files were opened by path (File → Open…, a drop, a second launch's arguments, a recent file; to
   * library subscribers): the window shows the first one opened, and says why any was refused.
   */
  | { type: 'opened'; outcomes: OpenFileOutcome[] };

/** What opening a file by path gave: its session's key, or why it was refused (then nothing else happened). */
export type OpenFileOutcome = { path: string; key: SessionKey } | { path: string; problem: string };

/** A file opened before (the "Recent" list), checked when listed. */
export interface RecentFile {
  /** Absolute path as the user gave it. */
  path: string;
  /** Why it cannot be opened now (gone, no longer a ledger…), or null. */
  missing: string | null;
}

export interface RecentFiles {
  files: RecentFile[];
  /**
   * Whether this backend opens files by path while it runs (the desktop app). Serve mode opens
   * only the files given on its command line (`serve --file`): a browser page names no paths.
   */
  openByPath: boolean;
}

/** Every request/response pair. The renderer sees exactly this (plus `onEvent`); the features come from `api-features.ts`. */
export interface ApiMethods extends FeatureApiMethods {
  getHome(req: Record<string, never>): HomeInfo;
  listSessions(req: Record<string, never>): SessionSummary[];
  openSession(req: { key: SessionKey }): SessionInfo;
  getTreeRows(req: { key: SessionKey; start: number; count: number; foldAudit: boolean }): TreeRowsResult;
  findRow(req: { key: SessionKey; id: string; foldAudit: boolean }): { row: number };
  getEntry(req: { key: SessionKey; id: string; maxBytes?: number; sliceStart?: number }): EntryDetail;
  getLeafView(req: LeafViewRequest): LeafView;
  getChainItems(req: ChainItemsRequest): ChainItems;
  getProjectedMessage(req: LeafRequest & { message: number }): ProjectedMessage;
  /** A page of the projected pane (the first screen came with `getLeafView`). */
  getProjectedMessages(req: ProjectedMessagesRequest): ProjectedMessages;
  /** Rows of a leaf's plan with their override options: a window (turns panel, strip tooltip) or by id (tree). */
  getPlanTurns(req: PlanTurnsRequest): PlanTurns;
  getWarnings(req: { key: SessionKey }): LedgerWarning[];
  getLine(req: { key: SessionKey; offset: number; maxBytes?: number }): RawLine;
  branch(req: BranchRequest): BranchResult;
  subscribe(req: Subscription): { subscription: string };
  unsubscribe(req: { subscription: string }): Record<string, never>;
  /** Files opened before, newest first, each checked now (docs/open-files.md). */
  listRecentFiles(req: Record<string, never>): RecentFiles;
  /** Opens a file of the Recent list again (only one that is on it; refused in serve mode). */
  openRecentFile(req: { path: string }): OpenFileOutcome;
}

export type ApiMethod = keyof ApiMethods;
export type ApiRequest<M extends ApiMethod> = Parameters<ApiMethods[M]>[0];
export type ApiResponse<M extends ApiMethod> = ReturnType<ApiMethods[M]>;

/** Per-call options of the renderer's client. */
export interface CallOptions {
  /**
   * Aborting it drops the call: the promise rejects at once with code `cancelled`, and the
   * backend stops the work (dropped unrun when queued, stopped between turns/pages when running).
   */
  signal?: AbortSignal;
}

/** The async client every renderer component talks to, whatever the transport. */
export type Api = { [M in ApiMethod]: (req: ApiRequest<M>, opts?: CallOptions) => Promise<ApiResponse<M>> } & {
  /** Listens to pushed events; returns a function that stops listening. */
  onEvent(listener: (e: ApiEvent) => void): () => void;
};

/**
 * What the Electron preload exposes as `window.vak`: an AbortSignal cannot cross the context
 * bridge, so a call takes a numeric call id instead and `cancel(callId)` aborts it; the
 * renderer's client (create-api.ts) turns this into the `Api` above.
 */
export type BridgeApi = {
  [M in ApiMethod]: (req: ApiRequest<M>, callId?: number) => Promise<ApiResponse<M>>;
} & {
  onEvent(listener: (e: ApiEvent) => void): () => void;
  /** Aborts the call made with `callId` (no effect once it answered). */
  cancel(callId: number): void;
  /** Tells main the page listens now. */
  ready(): void;
  /** Opening files by path: only the desktop app has it (docs/open-files.md). */
  files: DesktopFiles;
};

/**
 * The desktop app's file opening, through the preload. The page never names a path: the dialog
 * runs in main, and a drop hands over File objects whose paths the preload takes
 * (webUtils.getPathForFile; a File the page made itself has none). What was opened arrives as an
 * `opened` event, as for a second launch's files.
 */
export interface DesktopFiles {
  /** Shows File → Open… (main opens what the user picks). */
  showOpenDialog(): void;
  /** Opens files dropped on the window. */
  openDropped(files: readonly File[]): void;
}

/**
 * A failed request, as both transports report it. `too_large`: the reply would exceed the
 * transport's cap (ask for less: page). `cancelled`: the caller aborted it (a superseded request). `unknown_outcome` is the client's own: the connection
 * dropped after a write was sent and before its reply, so whether it happened is unknown.
 */
export interface ApiErrorPayload {
  code: 'bad_request' | 'not_found' | 'locked' | 'refused' | 'internal' | 'too_large' | 'cancelled' | 'unknown_outcome';
  message: string;
}

/** One request's answer, the same on both transports (IPC invoke result; a WebSocket frame adds its `id`). */
export type ApiReply = { ok: true; res: unknown } | { ok: false; error: ApiErrorPayload };

/**
 * An IPC reply: an ApiReply, or a result as the JSON text the core's worker wrote (parsed by the
 * preload, in the renderer's process: the main process only copies the string).
 */
export type IpcReply = ApiReply | { ok: true; json: string };
