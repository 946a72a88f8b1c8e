import type { Api, TreeRow } from '../../shared/api';
import { useAppStore } from '../store/app-store';
import { currentTreeSource, type TreeSource } from '../data/session-sources';

/** How far a child or sibling is looked for before giving up (rows). */
const SCAN_LIMIT = 4096;

/** Time travel: the row's entry becomes the selected leaf, and the row the cursor. */
export function selectRowEntry(row: TreeRow): void {
  const s = useAppStore.getState();
  s.selectLeaf(row.id, row.row);
  s.revealRow(row.row);
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

/** The row number of an entry (its own, or the folded row that holds it) in the tree as shown. */
export async function rowNumberOf(api: Api, id: string): Promise<number | undefined> {
  const s = useAppStore.getState();
  if (!s.sessionKey) return undefined;
  const { row } = await api.findRow({ key: s.sessionKey, id, foldAudit: s.foldAudit });
  return row;
}

/** The row of an entry, loaded. */
export async function rowOfEntry(api: Api, id: string): Promise<TreeRow | undefined> {
  const n = await rowNumberOf(api, id);
  const tree = currentTreeSource();
  return n === undefined || !tree ? undefined : tree.load(n);
}

/** Selects an entry by id: used by jumps from warnings, work items and live follow. */
export async function jumpToEntry(api: Api, id: string): Promise<void> {
  const n = await rowNumberOf(api, id).catch(() => undefined);
  const s = useAppStore.getState();
  s.selectLeaf(id, n ?? null);
  if (n !== undefined) s.revealRow(n);
}

/** One tree navigation command, as bound to keys. */
export type NavCommand = 'down' | 'up' | 'parent' | 'child' | 'prevSibling' | 'nextSibling' | 'root' | 'active';

export async function navigate(api: Api, cmd: NavCommand): Promise<void> {
  const tree = currentTreeSource();
  if (!tree || tree.total === 0) return;
  const s = useAppStore.getState();
  const cur = await cursorRow(tree);
  let target: TreeRow | undefined;
  switch (cmd) {
    case 'down':
    case 'up': {
      const at = s.selectedRow ?? -1;
      const next = at < 0 ? 0 : Math.max(0, Math.min(tree.total - 1, at + (cmd === 'down' ? 1 : -1)));
      target = await tree.load(next);
      break;
    }
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
  if (target) selectRowEntry(target);
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
