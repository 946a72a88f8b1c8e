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

/**
 * Key commands run in the order pressed, each from where the last one left the cursor: `Home`
 * may wait for its page of rows, and a `j` pressed meanwhile must step from the first row, not
 * from the row `Home` left (which `Home` would then take back). `commands` is the last command
 * still running; `epoch` changes when a click or a jump moves the cursor or another session
 * opens, and a command asked before that moves nothing (the user chose a row, or left, since).
 */
let commands: Promise<void> | null = null;
let epoch = 0;

function supersedeCommands(): void {
  epoch++;
  commands = null; // the keys pressed after it start from the new cursor, waiting for nothing older
  stopSettling();
}

/** Time travel: the row's entry becomes the selected leaf, and the row the cursor. */
export function selectRowEntry(row: TreeRow): void {
  supersedeCommands();
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

/**
 * Another session opens: the last one's rows found are not asked again, and its key commands
 * still waiting (a `Home` fetching its rows) move nothing in the new one.
 */
export function forgetSessionNav(): void {
  rowsFound.clear();
  supersedeCommands();
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
  supersedeCommands();
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

/** The row a step lands on, from the cursor as it is now. */
function stepIndex(tree: TreeSource, step: number): number {
  const at = useAppStore.getState().selectedRow ?? -1;
  return at < 0 ? 0 : Math.max(0, Math.min(tree.total - 1, at + step));
}

/** The row a step command lands on, when it is loaded already (undefined: not a step, or not loaded). */
function loadedStep(cmd: NavCommand): TreeRow | undefined {
  const tree = currentTreeSource();
  const step = stepOf(cmd);
  return tree && tree.total > 0 && step !== null ? tree.get(stepIndex(tree, step)) : undefined;
}

/**
 * Moves the cursor as a key asks; the panes follow once the keys rest (moveCursorTo). A step over
 * loaded rows with no command before it still running is drawn in the key's own task (quick
 * presses each start from the last one's row); any other command waits for the one before it.
 */
export function navigate(api: Api, cmd: NavCommand): Promise<void> {
  const loaded = commands ? undefined : loadedStep(cmd);
  if (loaded) {
    moveCursorTo(loaded);
    return Promise.resolve();
  }
  const asked = epoch;
  const run = (): Promise<void> => (asked === epoch ? runCommand(api, cmd, asked) : Promise.resolve());
  const done = commands ? commands.then(run) : run();
  const settled: Promise<void> = done
    .catch(() => undefined)
    .finally(() => {
      if (commands === settled) commands = null;
    });
  commands = settled;
  return done;
}

async function runCommand(api: Api, cmd: NavCommand, asked: number): Promise<void> {
  const moveTo = (row: TreeRow): void => {
    if (asked === epoch) moveCursorTo(row);
  };
  const tree = currentTreeSource();
  if (!tree || tree.total === 0) return;
  const step = stepOf(cmd);
  if (step !== null) {
    const next = stepIndex(tree, step);
    const row = tree.get(next) ?? (await tree.load(next));
    if (row) moveTo(row);
    return;
  }
  const s = useAppStore.getState();
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
  if (target) moveTo(target);
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
