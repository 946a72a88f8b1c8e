import { describeError } from '../api/api-methods';
import { Lru } from '../../shared/lru';

/** One fetched page as the server answers it: rows from `start`, the total it counts now, and extras. */
export interface PageAnswer<T, M> {
  start: number;
  items: T[];
  total: number;
  meta?: M;
}

export interface PagedSourceOptions<T, M> {
  /** Rows per page. */
  pageSize: number;
  /** Pages kept at most (least recently shown dropped first), whatever the list's length. */
  maxPages: number;
  total: number;
  /**
   * Shifts the page grid: page p holds rows [p·pageSize − shift, (p+1)·pageSize − shift), so a
   * window the list arrived with (e.g. the one ending at a leaf) is exactly one page.
   */
  shift?: number;
  /** Fetches rows [start, start + count). `signal` aborts when the answer is no longer wanted. */
  fetch: (start: number, count: number, signal: AbortSignal) => Promise<PageAnswer<T, M>>;
}

let sources = 0;

interface Page<T> {
  rows: (T | undefined)[];
  /** Fetched before the last `invalidate`: still shown, fetched again when on screen. */
  stale: boolean;
}

/**
 * A long list read by page: rows fetched as they come on screen, kept in an LRU of pages,
 * invalidated by version (a live change: pages stay shown until their refetch lands, so the view
 * neither blinks nor jumps), superseded fetches aborted and their answers dropped.
 */
export class PagedSource<T, M = undefined> {
  private readonly pages: Lru<number, Page<T>>;
  /** Fetches under way by page; `carried`: begun before a patch that left the page's rows as they were. */
  private readonly inflight = new Map<
    number,
    { version: number; abort: AbortController; done: Promise<void>; carried: boolean }
  >();
  private readonly listeners = new Set<() => void>();
  private readonly pageSize: number;
  private readonly shift: number;
  private version = 0;
  /** Tells sources apart (e.g. to key the list that shows one). */
  readonly id = ++sources;
  total: number;
  /** The extras of the newest answer (e.g. the tree's lane count). */
  meta: M | undefined;
  error: string | null = null;

  constructor(private readonly opts: PagedSourceOptions<T, M>) {
    this.pageSize = opts.pageSize;
    this.shift = (((opts.shift ?? 0) % opts.pageSize) + opts.pageSize) % opts.pageSize;
    this.total = opts.total;
    this.pages = new Lru(opts.maxPages);
  }

  private pageOf(row: number): number {
    return Math.floor((row + this.shift) / this.pageSize);
  }

  private baseOf(page: number): number {
    return page * this.pageSize - this.shift;
  }

  /**
   * Bumped by every invalidate and patch. A list calls `ensure` again when it changes: the change
   * aborted what was in flight, and a list whose visible rows did not move would not ask again.
   */
  get generation(): number {
    return this.version;
  }

  /** The row if its page is here (stale or not). */
  get(row: number): T | undefined {
    return this.pages.peek(this.pageOf(row))?.rows[row - this.baseOf(this.pageOf(row))];
  }

  /** The row, fetching its page when it is missing or stale. */
  async load(row: number): Promise<T | undefined> {
    if (row < 0 || row >= this.total) return undefined;
    const p = this.pageOf(row);
    if (!this.fresh(p)) await this.fetch(p);
    return this.get(row);
  }

  /** Makes sure rows [from, to] are (being) fetched, and marks their pages as just used. */
  ensure(from: number, to: number): void {
    if (this.total === 0) return;
    const a = this.pageOf(Math.max(0, from));
    const b = this.pageOf(Math.min(to, this.total - 1));
    for (let p = a; p <= b; p++) {
      this.pages.get(p);
      if (!this.has(p, from, to)) void this.fetch(p);
    }
  }

  /**
   * Page `p` is here, not stale, and holds every row of [from, to] in it. A page a view's window
   * seeded in part is not fetched for the rows the window gave: the projected pane's tail (the
   * first screen) sits inside a page that it fills only in part, and asking for the page again
   * was a second round trip and a second draw after most clicks.
   */
  private has(p: number, from: number, to: number): boolean {
    const page = this.pages.peek(p);
    if (!page || page.stale) return false;
    const base = this.baseOf(p);
    const end = Math.min(this.total, base + this.pageSize, to + 1);
    for (let row = Math.max(0, base, from); row < end; row++) if (page.rows[row - base] === undefined) return false;
    return true;
  }

  /** Puts rows that arrived another way (a view's own window) in place. */
  seed(start: number, items: readonly T[]): void {
    items.forEach((item, k) => {
      const row = start + k;
      const p = this.pageOf(row);
      let page = this.pages.peek(p);
      if (!page) this.pages.set(p, (page = { rows: [], stale: false }));
      page.rows[row - this.baseOf(p)] = item;
    });
  }

  /** The first loaded row that matches, with its row number (loaded pages only). */
  find(pred: (item: T) => boolean): { row: number; item: T } | undefined {
    for (const [p, page] of this.pages.entries()) {
      const k = page.rows.findIndex((x) => x !== undefined && pred(x));
      if (k >= 0) return { row: this.baseOf(p) + k, item: page.rows[k] as T };
    }
    return undefined;
  }

  /** A live change: a new total, every page to be fetched again, fetches under way dropped. */
  invalidate(total: number): void {
    this.version++;
    this.total = total;
    for (const [, page] of this.pages.entries()) page.stale = true;
    this.abortAll();
    this.notify();
  }

  /**
   * A live change that says what changed (an append's delta): a new total, `items` put in place
   * from `start`, and only the pages holding rows [stale.start, stale.end) fetched again. Pages
   * elsewhere stay fresh: nothing on screen that did not change is asked for again.
   */
  patch(total: number, start: number, items: readonly T[], stale: { start: number; end: number }): void {
    this.version++;
    // A fetch under way for a page the change does not touch still answers it: kept, not asked
    // again (a first read's steps patch the list while its first pages are on the way). Pages the
    // change touches (stale ones, and from the first new row on) are dropped and fetched anew.
    const staleFrom = stale.end > stale.start ? this.pageOf(stale.start) : Infinity;
    const staleTo = stale.end > stale.start ? this.pageOf(stale.end - 1) : -Infinity;
    const newFrom = this.pageOf(Math.min(start, this.total));
    for (const [p, f] of [...this.inflight]) {
      if ((p >= staleFrom && p <= staleTo) || p >= newFrom) {
        f.abort.abort();
        this.inflight.delete(p);
      } else {
        f.version = this.version;
        f.carried = true;
      }
    }
    this.total = total;
    if (stale.end > stale.start) {
      for (let p = this.pageOf(stale.start); p <= this.pageOf(stale.end - 1); p++) {
        const page = this.pages.peek(p);
        if (page) page.stale = true;
      }
    }
    // A page that was only partly there (the old end of the list) is filled or refetched by `fresh`.
    this.seed(start, items);
    this.notify();
  }

  /** Drops every fetch under way (the view went away or was replaced); a later `ensure` fetches again. */
  cancel(): void {
    this.abortAll();
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  /** The page is here, not stale, and every row of it that exists is filled (a seed can fill one in part). */
  private fresh(p: number): boolean {
    const page = this.pages.peek(p);
    if (!page || page.stale) return false;
    const base = this.baseOf(p);
    for (let row = Math.max(0, base); row < Math.min(this.total, base + this.pageSize); row++)
      if (page.rows[row - base] === undefined) return false;
    return true;
  }

  private abortAll(): void {
    for (const f of this.inflight.values()) f.abort.abort();
    this.inflight.clear();
  }

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }

  private fetch(p: number): Promise<void> {
    const have = this.inflight.get(p);
    if (have && have.version === this.version) return have.done;
    const abort = new AbortController();
    const base = this.baseOf(p);
    const start = Math.max(0, base);
    const entry = { version: this.version, abort, done: Promise.resolve(), carried: false };
    entry.done = this.opts.fetch(start, base + this.pageSize - start, abort.signal).then(
      (r) => {
        if (abort.signal.aborted || entry.version !== this.version) return;
        this.inflight.delete(p);
        const page: Page<T> = { rows: [], stale: false };
        r.items.forEach((item, k) => (page.rows[r.start + k - base] = item));
        this.pages.set(p, page);
        // An answer carried through a patch counts the rows before it: the patch's total is newer.
        this.total = entry.carried ? Math.max(this.total, r.total) : r.total;
        if (r.meta !== undefined) this.meta = r.meta;
        this.error = null;
        this.notify();
      },
      (e: unknown) => {
        if (abort.signal.aborted) return;
        this.inflight.delete(p);
        this.error = describeError(e);
        this.notify();
      },
    );
    this.inflight.set(p, entry);
    return entry.done;
  }
}
