/**
 * The API of the home and its sessions: what the library lists, and what opening a session
 * tells of it. Part of `ApiMethods` (api.ts). Plain types and limits only: the renderer imports it (through api.ts).
 */
import type { UsageTotals, WorkItem } from './ledger-types';
import type { SessionKey } from './leaf-request';

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
  /**
   * Which reading of the file these figures are of: a number no other reading in this backend
   * has had. It changes whenever the session is read again from byte 0 (its file rewritten, shrunk
   * or replaced, a kept index that did not match) or opened again; within one, entries are only added.
   */
  generation: number;
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
  /** The work items folded over the active chain, counted; the items come from `getWork` (the Work panel). */
  work: WorkSummary;
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

/**
 * Which work items the active chain folds to, without them: their count, and the newest work entry
 * the fold took (every other one is on its chain to the root, so the fold is that entry's). Two
 * equal summaries of one session (between reloads) name the same items.
 */
export interface WorkSummary {
  count: number;
  /** Id of the newest work entry folded, or null without any. */
  newest: string | null;
}

/** `getWork`'s answer: the active chain's work items now, with the summary they match. */
export interface WorkItems {
  key: SessionKey;
  work: WorkSummary;
  items: WorkItem[];
}

/** How far the first read of a session has come (bytes of the file as it was measured then). */
export interface ReadingProgress {
  bytesRead: number;
  bytesTotal: number;
  /**
   * Entries read so far. The session's other figures (its tree, branch points, leaves) stay those
   * of the last step announced, which may be fewer: the panes waiting for the whole file read its
   * rest in one go, and only this count and the bytes move meanwhile.
   */
  entriesRead: number;
}
