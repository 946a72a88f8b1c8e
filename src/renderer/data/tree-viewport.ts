/**
 * The height of the tree's scroll box (px) as this tab last measured it (its last load's, at
 * first): a tree opening (a reload's, another session's, folding) draws its first rows from it
 * instead of measuring the page it is mounted in, in the commit that mounts it (the tree checks
 * it after the frame's layout: useScaledRows).
 */
const STORE_KEY = 'vak-explorer.tree-viewport.v1';
let viewport: number | null = null;

/** sessionStorage when there is one that works (a sandboxed page may throw on access). */
function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

/** Reads the kept height, at the page's start (open-early.ts: with the page's first storage access). */
export function readTreeViewport(): void {
  try {
    const v = Number(storage()?.getItem(STORE_KEY) ?? NaN);
    viewport = Number.isFinite(v) && v > 0 ? v : null;
  } catch {
    viewport = null;
  }
}

/** The tree's scroll box height as last measured; null when it never was in this tab. */
export function lastTreeViewport(): number | null {
  return viewport;
}

/** Keeps the tree's scroll box height, for the next tree and the tab's next load. */
export function keepTreeViewport(px: number): void {
  if (px === viewport || !(px > 0)) return;
  viewport = px;
  try {
    storage()?.setItem(STORE_KEY, String(px));
  } catch {
    // (storage refused: the next load's tree measures itself)
  }
}
