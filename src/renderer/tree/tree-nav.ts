import type { Api, TreeRow } from '../../shared/api';
import { useAppStore, type AppState } from '../store/app-store';
import { AskOnce } from '../data/ask-once';
import { currentTreeSource, type TreeSource } from '../data/session-sources';
import { keySettler, type KeySettler } from './key-settle';
import { ROW_HEIGHT } from './lane-graph';

/** How far a child or sibling is looked for before giving up (rows). */
const SCAN_LIMIT = 4096;

/** The pending ask of keyboard travel (key-settle.ts), fed the window's key releases. */
let settler: KeySettler | null = null;
function keySettle(): KeySettler {
  if (!settler) {
    const made = keySettler();
    window.addEventListener('keyup', () => made.released());
    settler = made;
  }
  return settler;
}

function stopSettling(): void {
  settler?.stop();
}

/** Time travel: the row's entry becomes the selected leaf, and the row the cursor. */
export function selectRowEntry(row: TreeRow): void {
  stopSettling();
  const s = useAppStore.getState();
  s.selectLeaf(row.id, row.row);
  s.revealRow(row.row);
}

/** Keyboard travel: the cursor moves (and shows) now, the row's entry is selected once the keys rest. */
export function moveCursorTo(row: TreeRow): void {
  stopSettling();
  useAppStore.getState().placeCursor(row.row, true);
  keySettle().moved(() => {
    const s = useAppStore.getState();
    // The session changed, or another move already took over: nothing to select.
    if (s.selectedRow !== row.row || currentTreeSource()?.get(row.row)?.id !== row.id) return;
    s.selectLeaf(row.id, row.row);
  });
}

/** Rows a PageUp/PageDown moves: what the tree shows at once, less one row of context. */
function pageRows(): number {
  const h = document.querySelector('.tree-scroll')?.clientHeight ?? 0;
  return Math.max(1, Math.floor(h / ROW_HEIGHT) - 1);
}

async function cursorRow(tree: TreeSource): Promise<TreeRow | undefined> {
  const s = useAppStore.getState();
  if (s.selectedRow !== null) return tree.load(s.selectedRow);
  return undefined;
}

async function scan(
  tree: TreeSource,
  from: number,
  dir: 1 | -1,
  pred: (r: TreeRow) => boolean,
): Promise<TreeRow | undefined> {
  for (let i = from, n = 0; i >= 0 && i < tree.total && n < SCAN_LIMIT; i += dir, n++) {
    const r = await tree.load(i);
    if (r && pred(r)) return r;
  }
  return undefined;
}

/**
 * Rows found, by everything a row number depends on: the session, the folding, the tree's version
 * and its length (an append adds rows after the old ones and moves none of them).
 */
const rowsFound = new AskOnce<{ row: number }>();

/** Forgets the rows found (another session opens: nothing of the last one is asked again). */
export function forgetFoundRows(): void {
  rowsFound.clear();
}

/**
 * The row number of an entry (its own, or the folded row that holds it) in the tree as shown.
 * The open, the cursor and a fold may all ask for the same entry at once: one request answers them.
 */
export async function rowNumberOf(api: Api, id: string): Promise<number | undefined> {
  const s = useAppStore.getState();
  const key = s.sessionKey;
  if (!key) return undefined;
  const foldAudit = s.foldAudit;
  const { row } = await rowsFound.ask(rowAsked(s, key, id), () => api.findRow({ key, id, foldAudit }));
  return row;
}

function rowAsked(s: AppState, key: string, id: string): string {
  const rows = (s.foldAudit ? s.sessionInfo?.foldedRowCount : s.sessionInfo?.rowCount) ?? -1;
  return JSON.stringify([key, s.foldAudit, s.treeVersion, rows, id]);
}

/** The row of entry `id` in the tree as shown now, learnt with the session's figures: not asked again. */
export function knowRowOf(id: string, row: number): void {
  const s = useAppStore.getState();
  if (s.sessionKey) rowsFound.tell(rowAsked(s, s.sessionKey, id), { row });
}

/** The row of an entry, loaded. */
export async function rowOfEntry(api: Api, id: string): Promise<TreeRow | undefined> {
  const n = await rowNumberOf(api, id);
  const tree = currentTreeSource();
  return n === undefined || !tree ? undefined : tree.load(n);
}

/** Selects an entry by id: used by jumps from warnings, work items and live follow. */
export async function jumpToEntry(api: Api, id: string): Promise<void> {
  stopSettling();
  const n = await rowNumberOf(api, id).catch(() => undefined);
  const s = useAppStore.getState();
  s.selectLeaf(id, n ?? null);
  if (n !== undefined) s.revealRow(n);
}

/** One tree navigation command, as bound to keys. */
export type NavCommand =
  'down' | 'up' | 'pageDown' | 'pageUp' | 'parent' | 'child' | 'prevSibling' | 'nextSibling' | 'root' | 'active';

/** Rows a step command moves the cursor by (null: not a step). */
function stepOf(cmd: NavCommand): number | null {
  if (cmd === 'down') return 1;
  if (cmd === 'up') return -1;
  if (cmd === 'pageDown') return pageRows();
  if (cmd === 'pageUp') return -pageRows();
  return null;
}

/** Moves the cursor as a key asks; the panes follow once the keys rest (moveCursorTo). */

export async function navigate(api: Api, cmd: NavCommand): Promise<void> {
  const tree = currentTreeSource();
  if (!tree || tree.total === 0) return;
  const s = useAppStore.getState();
  const step = stepOf(cmd);
  if (step !== null) {
    // Read and move the cursor before any await: quick presses each start from the last one's row.
    const at = s.selectedRow ?? -1;
    const next = at < 0 ? 0 : Math.max(0, Math.min(tree.total - 1, at + step));
    const row = tree.get(next) ?? (await tree.load(next));
    if (row) moveCursorTo(row);
    return;
  }
  const cur = await cursorRow(tree);
  let target: TreeRow | undefined;
  switch (cmd) {
    case 'parent':
      if (cur?.parentId) target = await rowOfEntry(api, cur.parentId);
      break;
    case 'child':
      if (cur && cur.children > 0) target = await scan(tree, cur.row + 1, 1, (r) => r.parentId === cur.id);
      break;
    case 'prevSibling':
    case 'nextSibling':
      if (cur) target = await siblingBranch(api, tree, cur, cmd === 'nextSibling' ? 1 : -1);
      break;
    case 'root':
      target = await tree.load(0);
      break;
    case 'active': {
      const leaf = s.sessionInfo?.activeLeaf;
      if (leaf) target = await rowOfEntry(api, leaf);
      break;
    }
  }
  if (target) moveCursorTo(target);
}

/**
 * The sibling branch of the cursor: another child of its parent; when the cursor has none,
 * the nearest ancestor's sibling, so [ and ] switch branches from anywhere on one.
 */
async function siblingBranch(api: Api, tree: TreeSource, start: TreeRow, dir: 1 | -1): Promise<TreeRow | undefined> {
  let cur: TreeRow | undefined = start;
  for (let depth = 0; cur && cur.parentId && depth < 64; depth++) {
    const parentId: string = cur.parentId;
    const parent = await rowOfEntry(api, parentId);
    if (parent && parent.children > 1) {
      const from = dir === 1 ? cur.row + 1 : cur.row - 1;
      const hit = await scan(tree, from, dir, (r) => r.parentId === parentId);
      if (hit) return hit;
    }
    cur = parent;
  }
  return undefined;
}
