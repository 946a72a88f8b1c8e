/**
 * The API of what the backend pushes: subscriptions, and the events a subscriber hears (library
 * changes, a session's appends as a delta to patch with, progress, the reader's restarts).
 * Plain types and limits only: the renderer imports it (through api.ts).
 */
import type { OpenFileOutcome } from './api-files';
import type { SecretCounts, SecretSurveyState } from './api-secrets';
import type { ReadingProgress, SessionInfo, SessionSummary, WorkSummary } from './api-sessions';
import type { TreeRow } from './api-tree';
import type { UsageTotals } from './ledger-types';
import type { SessionKey } from './leaf-request';

export type Subscription =
  | { topic: 'library' }
  | {
      topic: 'session';
      key: SessionKey;
      /**
       * What the subscriber already shows, when its `openSession` answer came by another way than
       * this subscription's transport (serve mode's early answers, api-early.ts). Steps of a first
       * read that landed between that answer and this subscription are in the delta of the next
       * step this subscriber hears (it starts at `since.entryCount`); anything else that changed
       * meanwhile (an append, a reload, the read's end) is told at once, as a 'reloaded' event.
       */
      since?: SessionGeneration;
    };

/**
 * A generation no reading has: a subscription naming it is told 'reloaded' at once (a renewal
 * after a reconnect, whose events in between were lost).
 */
export const NO_GENERATION = 0;

/** A session as one `openSession` answer showed it (SessionInfo's figures of the same names). */
export interface SessionGeneration {
  /** SessionInfo.generation: which reading of the file it showed. */
  generation: number;
  entryCount: number;
  /** SessionInfo.reading was non-null: a first read was still under way. */
  reading: boolean;
}

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
  work: WorkSummary | null;
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
      /**
       * On the step that read to the end (`reading: null`): what `openSession` answers now, so
       * the follower that waited for the whole figures need not ask for them.
       */
      info?: SessionInfo;
    }
  | ({ type: 'progress'; key: SessionKey } & ReadingProgress)
  /**
   * How far the build of a context series has come, to the client that asked for it, while the
   * build lasts long enough to be seen: `done` of about `total` steps (each turn of the chain
   * scanned, then each turn end planned; `done` stays below `total` until the answer comes).
   */
  | { type: 'seriesProgress'; key: SessionKey; leaf: string; done: number; total: number }
  /**
   * The reader (the ledger core's worker) stopped: `restarted` (requests that were running failed
   * with `reason`; ask again) or `stopped` (it stopped too often and was not restarted).
   */
  | { type: 'reader'; change: 'restarted' | 'stopped'; reason: string }
  /** The user's `prices.json` was created, edited or removed (to library subscribers): ask for costs again. */
  | { type: 'prices' }
  /** The secret survey of sessions never opened was turned on or off (to library subscribers): ask for counts again. */
  | { type: 'secretSurvey'; survey: SecretSurveyState }
  /**
   * Every session's secret counts changed (an open session's scan found more or finished, the
   * survey counted one more; to library subscribers): what `getSecretCounts` answers now, so a
   * client asks it once and then follows these.
   */
  | { type: 'secretCounts'; counts: SecretCounts }
  /**
   * Files were opened by path (File → Open…, a drop, a second launch's arguments, a recent file; to
   * library subscribers): the window shows the first one opened, and says why any was refused.
   */
  | { type: 'opened'; outcomes: OpenFileOutcome[] };

/**
 * Every event's `type`, listed once: the worker's protocol lets through exactly these, so an event
 * type added to `ApiEvent` but not here fails to compile instead of being dropped on its way.
 */
export const API_EVENT_TYPES = [
  'library',
  'session',
  'progress',
  'seriesProgress',
  'reader',
  'prices',
  'secretSurvey',
  'secretCounts',
  'opened',
] as const satisfies readonly ApiEvent['type'][];

/** Compiles only while API_EVENT_TYPES names every member of ApiEvent. */
type Unlisted = Exclude<ApiEvent['type'], (typeof API_EVENT_TYPES)[number]>;
export const EVERY_EVENT_TYPE_LISTED: [Unlisted] extends [never] ? true : Unlisted = true;
