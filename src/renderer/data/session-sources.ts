import type {
  Api,
  ChainItem,
  LeafRequest,
  LeafView,
  ProjectedMessagesPage,
  SessionKey,
  TreeRow,
} from '../../shared/api';
import type { ProjectedMessage } from '../../shared/ledger-types';
import { PagedSource } from './paged-source';

/** Tree rows per page. */
export const TREE_PAGE = 256;
/** Tree pages kept: ~32k rows, whatever the session's size. */
export const TREE_MAX_PAGES = 128;
/** Chain items per page (a leaf view's own window is about as long). */
export const CHAIN_PAGE = 200;
/** Chain pages kept: ~13k items, whatever the chain's length. */
export const CHAIN_MAX_PAGES = 64;

/** Projected messages per page (a page is one reply; messages are clipped for transport). */
export const PROJECTED_PAGE = 50;
/** Projected pages kept: ~3k messages, whatever the projection's length. */
export const PROJECTED_MAX_PAGES = 64;

/** One projected message as the pane holds it: clipped for transport or whole. */
export interface PagedMessage {
  msg: ProjectedMessage;
  clipped: boolean;
}

/**
 * One leaf view's projected messages, read by page: the view brought its first screen, the
 * rest comes from `getProjectedMessages` as it scrolls into view. `positions` gathers the chain
 * position of every source entry named by a page that arrived (the History pane scrolls to them).
 */
export type ProjectedSource = PagedSource<PagedMessage> & { readonly positions: Map<string, number> };

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

/** A paged source over `getProjectedMessages` for `view` (its leaf pinned), seeded with what the view carries. */
export function projectedSource(api: Api, req: LeafRequest, view: LeafView): ProjectedSource {
  const pinned = { ...req, leaf: view.leaf };
  const positions = new Map<string, number>();
  const keep = (p: ProjectedMessagesPage): PagedMessage[] => {
    for (const [id, pos] of Object.entries(p.sourcePositions)) positions.set(id, pos);
    const clipped = new Set(p.clipped);
    return p.messages.map((msg, k) => ({ msg, clipped: clipped.has(p.start + k) }));
  };
  const src = new PagedSource<PagedMessage>({
    pageSize: PROJECTED_PAGE,
    maxPages: PROJECTED_MAX_PAGES,
    total: view.messageCount,
    fetch: async (start, count, signal) => {
      const r = await api.getProjectedMessages({ ...pinned, start, count }, { signal });
      return { start: r.start, items: keep(r), total: r.total };
    },
  });
  // A paged view brings its first screen as pages; a whole one (while comparing) every message.
  const pages: ProjectedMessagesPage[] = view.messagePages.length
    ? view.messagePages
    : [{ start: 0, messages: view.projection.messages, clipped: view.clipped, sourcePositions: view.sourcePositions }];
  for (const p of pages) src.seed(p.start, keep(p));
  return Object.assign(src, { positions });
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
const open: { tree: TreeSource | null; chain: ChainSource | null; projected: ProjectedSource | null } = {
  tree: null,
  chain: null,
  projected: null,
};

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

/** Makes `src` the projected messages the History pane and the tree ask (the main Projected pane's). */
export function setCurrentProjectedSource(src: ProjectedSource | null): void {
  open.projected = src;
}

export function currentProjectedSource(): ProjectedSource | null {
  return open.projected;
}

/** Forgets every source (session switches, tests). */
export function dropSessionSources(): void {
  open.tree?.cancel();
  open.tree = null;
  open.chain = null;
  open.projected = null;
}
