/**
 * The API of a session's tree: its rows as drawn, a window at a time. Part of `ApiMethods`
 * (api.ts). Plain types and limits only: the renderer imports it (through api.ts).
 */
import type { SessionKey } from './leaf-request';

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

/** A window of `count` tree rows from `start`, as drawn with audit runs folded or not. */
export interface TreeRowsRequest {
  key: SessionKey;
  start: number;
  count: number;
  foldAudit: boolean;
  /**
   * Instead of `start` (give 0): the page of `count` rows, from a multiple of `count`, that holds
   * the active leaf's row — while a first read is under way, the first page (the tree opens on its
   * top rows then). The answer's `start` says which page it is. A click in the library asks it
   * with the session's open, before the open's answer tells the row.
   */
  holding?: 'activeLeaf';
}

export interface TreeRowsResult {
  total: number;
  laneCount: number;
  rows: TreeRow[];
  /** The first row's number: given when the request named `holding`. */
  start?: number;
}
