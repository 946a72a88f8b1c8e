/**
 * Full-text search over the home's ledgers, as a streaming scan: no index
 * is kept (bench: `npm run bench -- search`). Each search belongs to one client; a new
 * search from that client cancels its previous one of the same kind (text or id) where the
 * work happens (the scan checks between chunks). Pages continue from a cursor the service keeps.
 */
import type { SearchPage, SearchRequest, SearchSessionHits } from '../../shared/api-features';
import type { SessionKey, SessionSummary } from '../../shared/api';
import { sessionPath } from '../core/home';
import { openRegular, scanFile, type EntryFilter, type ScanPosition } from './file-scan';
import { prepareQuery, type PreparedQuery } from './text-match';

/** Bytes scanned per call at most: a page with fewer hits comes back with progress, not later. */
export const PAGE_BYTE_BUDGET = 64 << 20;
const KEEP_SEARCHES = 32;

interface SearchFile {
  summary: SessionSummary;
  path: string;
  size: number;
}

interface RunningSearch {
  id: string;
  clientId: string;
  query: PreparedQuery;
  filter: EntryFilter;
  files: SearchFile[];
  file: number;
  pos: ScanPosition;
  scannedBytes: number;
  totalBytes: number;
  page: number;
  cancelled: boolean;
  busy: boolean;
}

export class SearchError extends Error {
  constructor(
    readonly code: 'bad_request' | 'not_found',
    message: string,
  ) {
    super(message);
  }
}

export class SearchService {
  private searches = new Map<string, RunningSearch>();

  constructor(
    private readonly home: string,
    /** The library's summaries as known now (agent, cwd, title, mtime, size). */
    private readonly sessions: () => SessionSummary[],
  ) {}

  /** Runs a search, or its next page with `cursor`. */
  async search(req: SearchRequest, clientId: string): Promise<SearchPage> {
    let s: RunningSearch;
    if (req.cursor !== undefined) {
      const found = this.searches.get(req.searchId);
      if (!found || found.clientId !== clientId) throw new SearchError('not_found', `no search ${req.searchId}`);
      if (req.cursor !== `${found.id}:${found.page}`)
        throw new SearchError('bad_request', 'stale cursor: ask from the last page');
      if (found.busy) throw new SearchError('bad_request', 'this search is still reading its previous page');
      s = found;
    } else {
      // A text search replaces the client's text search, an id lookup its id lookup: the
      // palette's lookup by id leaves a search of the search panel running.
      const match = req.match ?? 'text';
      for (const other of this.searches.values())
        if (other.clientId === clientId && other.query.match === match) this.stop(other);
      s = this.start(req, clientId);
    }
    return this.page(s, req.limit);
  }

  /** Stops a search: a page being read returns what it has, with `cancelled`. */
  cancel(searchId: string, clientId: string): boolean {
    const s = this.searches.get(searchId);
    if (!s || s.clientId !== clientId) return false;
    this.stop(s);
    return true;
  }

  /** A client went away: its searches stop. */
  dropClient(clientId: string): void {
    for (const s of [...this.searches.values()]) if (s.clientId === clientId) this.stop(s);
  }

  private stop(s: RunningSearch): void {
    s.cancelled = true;
    this.searches.delete(s.id);
  }

  private start(req: SearchRequest, clientId: string): RunningSearch {
    const f = req.filters;
    const agents = f.agents ? new Set(f.agents) : null;
    const cwds = f.cwds ? new Set(f.cwds) : null;
    let files: SearchFile[];
    const inScope = (s: SessionSummary): boolean =>
      (!agents || agents.has(s.agent)) &&
      (!cwds || (s.cwd !== null && cwds.has(s.cwd))) &&
      // A session whose whole span lies outside the dates has no entry inside them.
      !(f.from !== undefined && s.lastTs !== null && s.lastTs < f.from) &&
      !(f.to !== undefined && s.firstTs !== null && s.firstTs > f.to);
    const all = this.sessions();
    if (req.scope.kind === 'session') {
      const key: SessionKey = req.scope.key;
      const one = all.find((s) => s.key === key);
      if (!one) throw new SearchError('not_found', `no session ${key} in this home`);
      files = [one]
        .filter(inScope)
        .map((summary) => ({
          summary,
          path: summary.openedPath ?? sessionPath(this.home, key),
          size: summary.sizeBytes,
        }));
    } else {
      // Newest sessions first: what a user most likely looks for, and first results soonest.
      files = all
        .filter(inScope)
        .sort((a, b) => b.mtimeMs - a.mtimeMs || (a.key < b.key ? -1 : 1))
        .map((summary) => ({
          summary,
          path: summary.openedPath ?? sessionPath(this.home, summary.key),
          size: summary.sizeBytes,
        }));
    }
    const s: RunningSearch = {
      id: req.searchId,
      clientId,
      query: prepareQuery(req.query, req.match ?? 'text'),
      filter: { kinds: f.kinds ? new Set(f.kinds) : null, from: f.from ?? null, to: f.to ?? null },
      files,
      file: 0,
      pos: { offset: 0, line: 0 },
      scannedBytes: 0,
      totalBytes: files.reduce((n, x) => n + x.size, 0),
      page: 0,
      cancelled: false,
      busy: false,
    };
    this.searches.delete(s.id);
    this.searches.set(s.id, s);
    for (const k of this.searches.keys()) if (this.searches.size > KEEP_SEARCHES) this.searches.delete(k);
    return s;
  }

  private async page(s: RunningSearch, limit: number): Promise<SearchPage> {
    s.busy = true;
    const groups: SearchSessionHits[] = [];
    let hits = 0;
    let budget = PAGE_BYTE_BUDGET;
    try {
      while (s.file < s.files.length && hits < limit && budget > 0 && !s.cancelled) {
        const f = s.files[s.file];
        const fh = await openRegular(f.path);
        if (!fh) {
          // Gone, a FIFO, a link: skipped, never opened for reading.
          s.scannedBytes += Math.max(0, f.size - s.pos.offset);
          this.nextFile(s);
          continue;
        }
        let out;
        try {
          out = await scanFile(fh, s.pos, s.query, s.filter, limit - hits, budget, () => s.cancelled);
        } finally {
          await fh.close();
        }
        budget -= out.bytesScanned;
        s.scannedBytes += out.bytesScanned;
        if (out.hits.length > 0) {
          const { summary } = f;
          groups.push({
            key: summary.key,
            agent: summary.agent,
            sessionId: summary.sessionId,
            cwd: summary.cwd,
            title: summary.title,
            hits: out.hits,
          });
          hits += out.hits.length;
        }
        if (out.next) s.pos = out.next;
        else this.nextFile(s);
      }
    } finally {
      s.busy = false;
    }
    const done = s.file >= s.files.length;
    if (done) this.searches.delete(s.id);
    s.page++;
    return {
      searchId: s.id,
      sessions: groups,
      hits,
      done: done && !s.cancelled,
      cursor: done || s.cancelled ? null : `${s.id}:${s.page}`,
      cancelled: s.cancelled,
      scannedBytes: Math.min(s.scannedBytes, s.totalBytes),
      totalBytes: s.totalBytes,
      filesScanned: s.file,
      filesTotal: s.files.length,
    };
  }

  private nextFile(s: RunningSearch): void {
    s.file++;
    s.pos = { offset: 0, line: 0 };
  }
}
