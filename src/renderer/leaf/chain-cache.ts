import type { Api, ChainItem, LeafRequest, LeafView } from '../../shared/api';
import { describeError } from '../api/api-methods';

/** Chain items per fetched page (a leaf view's own window is about as long). */
export const CHAIN_PAGE = 200;
/** Pages kept at most (least recently shown dropped first): ~13k items, whatever the chain's length. */
export const MAX_CHAIN_PAGES = 64;

/**
 * One leaf view's chain, fetched by page as the History pane scrolls, for all
 * kinds or only some (`kinds`: then rows count matching entries only). Made
 * anew for every view, so a page never mixes two projections.
 */
export class ChainPageCache {
  private pages = new Map<number, (ChainItem | undefined)[]>();
  private inflight = new Map<number, Promise<void>>();
  private listeners = new Set<() => void>();
  /**
   * Rows are paged on a grid shifted so the view's own window is exactly one page
   * (it ends at the leaf, not at a multiple of CHAIN_PAGE): page p holds rows
   * [p·CHAIN_PAGE − shift, (p+1)·CHAIN_PAGE − shift).
   */
  private readonly shift: number;
  error: string | null = null;

  constructor(
    private readonly api: Api,
    /** The request that produced the view, its leaf pinned (a live append must not move it). */
    private readonly req: LeafRequest,
    readonly kinds: string[] | null,
    readonly total: number,
    seed?: { start: number; items: ChainItem[] },
  ) {
    this.shift = seed ? (CHAIN_PAGE - (seed.start % CHAIN_PAGE)) % CHAIN_PAGE : 0;
    if (seed) this.put(seed.start, seed.items);
  }

  /** A cache over `view`: seeded with its window when no kind is filtered out. */
  static forView(api: Api, req: LeafRequest, view: LeafView, hiddenKinds: readonly string[]): ChainPageCache {
    const pinned = { ...req, leaf: view.leaf };
    const all = Object.keys(view.kindCounts);
    const shown = all.filter((k) => !hiddenKinds.includes(k));
    if (shown.length === all.length)
      return new ChainPageCache(api, pinned, null, view.chainLength, { start: view.chainStart, items: view.chain });
    const total = shown.reduce((n, k) => n + view.kindCounts[k], 0);
    return new ChainPageCache(api, pinned, shown, total);
  }

  private pageOf(row: number): number {
    return Math.floor((row + this.shift) / CHAIN_PAGE);
  }

  item(row: number): ChainItem | undefined {
    return this.pages.get(this.pageOf(row))?.[(row + this.shift) % CHAIN_PAGE];
  }

  /** The row showing chain position `pos`: itself without a filter, else looked for among loaded pages. */
  rowOf(pos: number): number | undefined {
    if (!this.kinds) return pos < this.total ? pos : undefined;
    for (const [p, items] of this.pages) {
      const k = items.findIndex((c) => c?.pos === pos);
      if (k >= 0) return p * CHAIN_PAGE - this.shift + k;
    }
    return undefined;
  }

  /** A loaded item by entry id (the tree's hover asks why an entry is hidden). */
  byId(id: string): ChainItem | undefined {
    for (const items of this.pages.values()) {
      const c = items.find((x) => x?.id === id);
      if (c) return c;
    }
    return undefined;
  }

  /** Makes sure rows [from, to] are (being) fetched. */
  ensure(from: number, to: number): void {
    const a = this.pageOf(Math.max(0, from));
    const b = this.pageOf(Math.min(to, this.total - 1));
    for (let p = a; p <= b; p++) {
      const items = this.pages.get(p);
      if (items) {
        // Map order is recency order: re-insert what is on screen.
        this.pages.delete(p);
        this.pages.set(p, items);
      }
      if (!this.complete(p)) void this.fetch(p);
    }
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Every row of page `p` is here (a seed can fill a page only in part). */
  private complete(p: number): boolean {
    const items = this.pages.get(p);
    if (!items) return false;
    const base = p * CHAIN_PAGE - this.shift;
    for (let row = Math.max(0, base); row < Math.min(this.total, base + CHAIN_PAGE); row++)
      if (!items[row - base]) return false;
    return true;
  }

  private put(start: number, items: ChainItem[]): void {
    items.forEach((c, k) => {
      const row = start + k;
      const p = this.pageOf(row);
      let page = this.pages.get(p);
      if (!page) this.pages.set(p, (page = []));
      page[(row + this.shift) % CHAIN_PAGE] = c;
    });
    for (const p of this.pages.keys()) {
      if (this.pages.size <= MAX_CHAIN_PAGES) break;
      this.pages.delete(p);
    }
  }

  private fetch(p: number): Promise<void> {
    const have = this.inflight.get(p);
    if (have) return have;
    const base = p * CHAIN_PAGE - this.shift;
    const start = Math.max(0, base);
    const kinds = this.kinds ? { kinds: this.kinds } : {};
    const req = this.api
      .getChainItems({ ...this.req, start, count: base + CHAIN_PAGE - start, ...kinds })
      .then(
        (r) => {
          this.put(r.start, r.items);
          this.error = null;
        },
        (e: unknown) => {
          this.error = describeError(e);
        },
      )
      .finally(() => {
        this.inflight.delete(p);
        for (const l of [...this.listeners]) l();
      });
    this.inflight.set(p, req);
    return req;
  }
}

let current: ChainPageCache | null = null;

/** The History pane's cache (the tree's hover asks it why a loaded entry is hidden). */
export function currentChainCache(): ChainPageCache | null {
  return current;
}

/** Makes `c` the cache the tree's hover asks (the History pane calls it for the list on screen). */
export function setCurrentChainCache(c: ChainPageCache | null): void {
  current = c;
}
