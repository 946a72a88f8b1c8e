import type { Api, SessionKey, TreeRow } from '../../shared/api';

export const PAGE_SIZE = 256;
/** Pages kept at most (least recently shown dropped first): ~32k rows, whatever the session's size. */
export const MAX_PAGES = 128;

/**
 * Tree rows fetched in fixed pages and kept. After a live change every page is marked
 * stale but still shown until its refetch lands, so the view never blinks or jumps.
 */
export class TreePageCache {
  private pages = new Map<number, TreeRow[]>();
  private stale = new Set<number>();
  private inflight = new Map<number, Promise<TreeRow[]>>();
  private listeners = new Set<() => void>();
  private generation = 0;
  laneCount = 1;
  error: string | null = null;

  constructor(
    private readonly api: Api,
    readonly key: SessionKey,
    readonly foldAudit: boolean,
    public total: number,
  ) {}

  row(i: number): TreeRow | undefined {
    return this.pages.get(Math.floor(i / PAGE_SIZE))?.[i % PAGE_SIZE];
  }

  /** The row, fetching its page when needed. */
  async load(i: number): Promise<TreeRow | undefined> {
    if (i < 0 || i >= this.total) return undefined;
    const p = Math.floor(i / PAGE_SIZE);
    if (!this.pages.has(p) || this.stale.has(p)) await this.fetch(p);
    return this.row(i);
  }

  /** Makes sure rows [from, to] are (being) fetched. */
  ensure(from: number, to: number): void {
    const a = Math.max(0, Math.floor(from / PAGE_SIZE));
    const b = Math.floor(Math.min(to, this.total - 1) / PAGE_SIZE);
    for (let p = a; p <= b; p++) {
      const rows = this.pages.get(p);
      if (rows) {
        // Map order is recency order: re-insert what is on screen.
        this.pages.delete(p);
        this.pages.set(p, rows);
      }
      if (!rows || this.stale.has(p)) void this.fetch(p).catch(() => undefined);
    }
  }

  /** Drops the least recently shown pages past MAX_PAGES. */
  private evict(): void {
    for (const p of this.pages.keys()) {
      if (this.pages.size <= MAX_PAGES) break;
      this.pages.delete(p);
      this.stale.delete(p);
    }
  }

  /** A live change: new total, every page to be fetched again. */
  invalidate(total: number): void {
    this.total = total;
    this.generation++;
    for (const p of this.pages.keys()) this.stale.add(p);
    this.inflight.clear();
    this.notify();
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }

  private fetch(p: number): Promise<TreeRow[]> {
    const have = this.inflight.get(p);
    if (have) return have;
    const gen = this.generation;
    const req = this.api
      .getTreeRows({ key: this.key, start: p * PAGE_SIZE, count: PAGE_SIZE, foldAudit: this.foldAudit })
      .then(
        (r) => {
          if (gen === this.generation) {
            this.pages.delete(p);
            this.pages.set(p, r.rows);
            this.stale.delete(p);
            this.evict();
            this.total = r.total;
            this.laneCount = Math.max(1, r.laneCount);
            this.error = null;
          }
          this.inflight.delete(p);
          this.notify();
          return r.rows;
        },
        (e: unknown) => {
          this.inflight.delete(p);
          this.error = e instanceof Error ? e.message : String(e);
          this.notify();
          throw e;
        },
      );
    this.inflight.set(p, req);
    return req;
  }
}

let current: TreePageCache | null = null;

/** The one cache of the open session's tree (shared by the view and keyboard navigation). */
export function treeCacheFor(api: Api, key: SessionKey, foldAudit: boolean, total: number): TreePageCache {
  if (!current || current.key !== key || current.foldAudit !== foldAudit)
    current = new TreePageCache(api, key, foldAudit, total);
  return current;
}

export function currentTreeCache(): TreePageCache | null {
  return current;
}

/** Forgets the cache (tests, session switches). */
export function dropTreeCache(): void {
  current = null;
}
