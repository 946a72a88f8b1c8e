/**
 * One search as the panel runs it: pages fetched from the backend until enough hits fill
 * the list (a page that ran out of byte budget comes back early, with progress, and the
 * next one is asked at once), then more on demand. Superseding or closing a search cancels
 * it on the backend, where the scan stops between chunks.
 */
import type { Api } from '../../shared/api';
import type { SearchHit, SearchPage, SearchRequest, SearchSessionHits } from '../../shared/api-features';
import { describeError } from '../api/api-methods';

/** Hits a search gathers before it waits to be asked for more (the list's first screens). */
export const FIRST_HITS = 60;
/** Hits each "more…" adds. */
export const MORE_HITS = 100;
/** Hits per request: small, so the first ones are shown soon. */
const PAGE_LIMIT = 50;

export type SearchStatus = 'running' | 'paused' | 'done' | 'error' | 'cancelled';

export interface SearchSnapshot {
  status: SearchStatus;
  /** Sessions in the order their hits came (newest sessions first), hits in file order. */
  groups: SearchSessionHits[];
  hits: number;
  scannedBytes: number;
  totalBytes: number;
  filesScanned: number;
  filesTotal: number;
  error: string | null;
}

export type SearchParams = Omit<SearchRequest, 'searchId' | 'cursor' | 'limit'>;

let nextId = 0;
/** A search id unique within this window (the backend scopes ids per client). */
const newSearchId = (): string => `s${++nextId}-${Date.now().toString(36)}`;

export class SearchRun {
  readonly id = newSearchId();
  private snap: SearchSnapshot = {
    status: 'running',
    groups: [],
    hits: 0,
    scannedBytes: 0,
    totalBytes: 0,
    filesScanned: 0,
    filesTotal: 0,
    error: null,
  };
  private cursor: string | null = null;
  private target: number;
  private busy = false;
  private stopped = false;
  private listeners = new Set<() => void>();

  constructor(
    private readonly api: Api,
    private readonly params: SearchParams,
    /** Hits gathered before the run waits to be asked for more. */
    firstHits = FIRST_HITS,
  ) {
    this.target = firstHits;
  }

  /** The current state (a new object after every change). */
  snapshot = (): SearchSnapshot => this.snap;

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /** Asks for the first page. */
  start(): void {
    void this.pump();
  }

  /** Asks for `MORE_HITS` more hits (the list scrolled to its end, or "more…"). */
  more(): void {
    if (this.stopped || this.snap.status !== 'paused') return;
    this.target = this.snap.hits + MORE_HITS;
    void this.pump();
  }

  /** Stops the search, here and on the backend (a page being read returns early there). */
  cancel(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.snap.status === 'running' || this.snap.status === 'paused') {
      this.api.cancelSearch({ searchId: this.id }).catch(() => undefined);
      this.update({ status: 'cancelled' });
    }
  }

  private update(patch: Partial<SearchSnapshot>): void {
    this.snap = { ...this.snap, ...patch };
    for (const fn of this.listeners) fn();
  }

  /** Fetches pages until the target is reached, the scan ends, or the search is stopped. */
  private async pump(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.update({ status: 'running' });
    try {
      for (let first = this.cursor === null; !this.stopped; first = false) {
        const page: SearchPage = await this.api.search({
          ...this.params,
          searchId: this.id,
          limit: PAGE_LIMIT,
          ...(first ? {} : { cursor: this.cursor ?? '' }),
        });
        if (this.stopped) return;
        this.cursor = page.cursor;
        const groups = mergeGroups(this.snap.groups, page.sessions);
        const hits = this.snap.hits + page.hits;
        const status: SearchStatus = page.cancelled
          ? 'cancelled'
          : page.cursor === null
            ? 'done'
            : hits >= this.target
              ? 'paused'
              : 'running';
        this.update({
          status,
          groups,
          hits,
          scannedBytes: page.scannedBytes,
          totalBytes: page.totalBytes,
          filesScanned: page.filesScanned,
          filesTotal: page.filesTotal,
        });
        if (status !== 'running') return;
      }
    } catch (e) {
      if (!this.stopped) this.update({ status: 'error', error: describeError(e) });
    } finally {
      this.busy = false;
    }
  }
}

/** Adds a page's groups: a session continued from the previous page keeps its one group. */
export function mergeGroups(prev: SearchSessionHits[], page: SearchSessionHits[]): SearchSessionHits[] {
  if (page.length === 0) return prev;
  const out = prev.slice();
  const at = new Map(out.map((g, k) => [g.key, k]));
  for (const g of page) {
    const k = at.get(g.key);
    if (k === undefined) {
      at.set(g.key, out.length);
      out.push(g);
    } else {
      const hits: SearchHit[] = [...out[k].hits, ...g.hits];
      out[k] = { ...out[k], hits };
    }
  }
  return out;
}
