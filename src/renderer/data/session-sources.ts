import type { Api, ChainItem, LeafRequest, LeafView, SessionKey, TreeRow } from '../../shared/api';
import { PagedSource } from './paged-source';

/** Tree rows per page. */
export const TREE_PAGE = 256;
/** Tree pages kept: ~32k rows, whatever the session's size. */
export const TREE_MAX_PAGES = 128;
/** Chain items per page (a leaf view's own window is about as long). */
export const CHAIN_PAGE = 200;
/** Chain pages kept: ~13k items, whatever the chain's length. */
export const CHAIN_MAX_PAGES = 64;

/** The open session's tree rows, as shown (folded or not); `meta` is the lane count. */
export type TreeSource = PagedSource<TreeRow, number> & { readonly key: SessionKey; readonly foldAudit: boolean };

/** One leaf view's chain for the History pane, all kinds or only `kinds`. */
export type ChainSource = PagedSource<ChainItem> & { readonly kinds: readonly string[] | null };

/** A paged source over `getTreeRows`. */
export function treeSource(api: Api, key: SessionKey, foldAudit: boolean, total: number): TreeSource {
  const src = new PagedSource<TreeRow, number>({
    pageSize: TREE_PAGE,
    maxPages: TREE_MAX_PAGES,
    total,
    fetch: async (start, count) => {
      const r = await api.getTreeRows({ key, start, count, foldAudit });
      return { start, items: r.rows, total: r.total, meta: Math.max(1, r.laneCount) };
    },
  });
  return Object.assign(src, { key, foldAudit });
}

/**
 * A paged source over `getChainItems` for `view` (its leaf pinned: a live append must not move
 * it), seeded with the view's own window when no kind is filtered out. Made anew for every view,
 * so a page never mixes two projections.
 */
export function chainSource(api: Api, req: LeafRequest, view: LeafView, hiddenKinds: readonly string[]): ChainSource {
  const pinned = { ...req, leaf: view.leaf };
  const all = Object.keys(view.kindCounts);
  const shown = all.filter((k) => !hiddenKinds.includes(k));
  const kinds = shown.length === all.length ? null : shown;
  const total = kinds ? kinds.reduce((n, k) => n + view.kindCounts[k], 0) : view.chainLength;
  const src = new PagedSource<ChainItem>({
    pageSize: CHAIN_PAGE,
    maxPages: CHAIN_MAX_PAGES,
    total,
    // The grid is laid on the view's window (it ends at the leaf, not at a multiple of CHAIN_PAGE).
    shift: kinds ? 0 : CHAIN_PAGE - (view.chainStart % CHAIN_PAGE),
    fetch: async (start, count) => {
      const r = await api.getChainItems({ ...pinned, start, count, ...(kinds ? { kinds: [...kinds] } : {}) });
      return { start: r.start, items: r.items, total: r.total };
    },
  });
  if (!kinds) src.seed(view.chainStart, view.chain);
  return Object.assign(src, { kinds });
}

/** The row of the chain source showing chain position `pos` (without a filter, the position itself). */
export function chainRowOf(src: ChainSource, pos: number): number | undefined {
  if (!src.kinds) return pos < src.total ? pos : undefined;
  return src.find((c) => c.pos === pos)?.row;
}

/**
 * The sources the open session's views share (the tree's keyboard navigation reads the tree's
 * rows; the tree's hover asks the History pane's chain why an entry is hidden). One of each.
 */
const open: { tree: TreeSource | null; chain: ChainSource | null } = { tree: null, chain: null };

/** The tree source for this session and folding, made when it changes. */
export function openTreeSource(api: Api, key: SessionKey, foldAudit: boolean, total: number): TreeSource {
  const cur = open.tree;
  if (cur && cur.key === key && cur.foldAudit === foldAudit) return cur;
  cur?.cancel();
  return (open.tree = treeSource(api, key, foldAudit, total));
}

export function currentTreeSource(): TreeSource | null {
  return open.tree;
}

/** Makes `src` the chain the tree's hover asks (the History pane, for the list on screen). */
export function setCurrentChainSource(src: ChainSource | null): void {
  open.chain = src;
}

export function currentChainSource(): ChainSource | null {
  return open.chain;
}

/** Forgets every source (session switches, tests). */
export function dropSessionSources(): void {
  open.tree?.cancel();
  open.tree = null;
  open.chain = null;
}
