/**
 * Full-text search over the home's ledgers, as a streaming scan: no index
 * is kept (bench: `npm run bench -- search`). A query that is an entry id is first looked up
 * without a scan (id-lookup.ts): its hit is the first page, at once, and the scan that
 * follows skips it. Each search belongs to one client; a new search from that client cancels
 * its previous one of the same kind (text or id) where the work happens (the scan checks
 * between chunks). Pages continue from a cursor the service keeps.
 */
import type { SearchHit, SearchPage, SearchRequest, SearchSessionHits } from '../../shared/api-features';
import type { SessionKey, SessionSummary } from '../../shared/api';
import { sessionPath } from '../core/home';
import { decodeAndMatch, MAX_LINE, openRegular, scanFile, type EntryFilter, type ScanPosition } from './file-scan';
import {
  entryIdOf,
  idOffsets,
  lineNumberAt,
  readLineAt,
  SPAN_SLACK_MS,
  uuidTimeMs,
  windowFor,
  type IndexedLine,
  type LookupWork,
  type OpenIndex,
} from './id-lookup';
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
  /** The entry id the query names, looked up before the first page's scan (null: none, or done). */
  lookup: string | null;
  /** `key\nentryId` of hits the lookup sent: the scan does not send them again. */
  sent: Set<string>;
}

/** Counted work of every search so far (tests assert what a lookup did not read). */
export interface SearchWork {
  /** Bytes the scan read. */
  scannedBytes: number;
  /** Id lookups answered, by where: an open session's index, or a file's window found by bisection. */
  fromOpenIndex: number;
  fromFileWindow: number;
  /** Bytes the lookups read (probes and windows), and to count lines. */
  probedBytes: number;
  countedBytes: number;
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
  readonly work: SearchWork = {
    scannedBytes: 0,
    fromOpenIndex: 0,
    fromFileWindow: 0,
    probedBytes: 0,
    countedBytes: 0,
  };

  constructor(
    private readonly home: string,
    /** The library's summaries as known now (agent, cwd, title, mtime, size). */
    private readonly sessions: () => SessionSummary[],
    /** The sessions open now, with their indexes (an id is looked up there first). */
    private readonly openIndexes: () => Iterable<OpenIndex> = () => [],
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
      files = [one].filter(inScope).map((summary) => ({
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
      lookup: entryIdOf(req.query),
      sent: new Set(),
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
      if (s.lookup !== null) {
        const found = await this.lookUp(s, s.lookup);
        s.lookup = null;
        for (const g of found) for (const h of g.hits) s.sent.add(`${g.key}\n${h.entryId}`);
        groups.push(...found);
        hits += found.reduce((n, g) => n + g.hits.length, 0);
        // Sent at once: the scan for more (the same id elsewhere, the id's text in messages) is the next page.
        if (hits > 0) budget = 0;
      }
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
        this.work.scannedBytes += out.bytesScanned;
        const fresh =
          s.sent.size === 0 ? out.hits : out.hits.filter((h) => !s.sent.has(`${f.summary.key}\n${h.entryId}`));
        if (fresh.length > 0) {
          groups.push({ ...groupOf(f.summary), hits: fresh });
          hits += fresh.length;
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

  /**
   * The entry `id` names, without a scan: in the indexes of the sessions open now, then in
   * the window of each other file in scope whose span of time holds the id's time, until one
   * has it (sent at once; the scan that follows finds any other).
   */
  private async lookUp(s: RunningSearch, id: string): Promise<SearchSessionHits[]> {
    const out: SearchSessionHits[] = [];
    const inScope = new Map(s.files.map((f) => [f.summary.key, f]));
    const answered = new Set<SessionKey>();
    for (const open of this.openIndexes()) {
      const f = inScope.get(open.key);
      if (!f) continue;
      let found: IndexedLine | null;
      try {
        found = open.find(id);
      } catch {
        continue; // the file changed under the index: the scan reads it as it is
      }
      if (!found) continue;
      const hit = decodeAndMatch(found.bytes, s.query, s.filter, found.line);
      if (!hit) continue;
      answered.add(open.key);
      this.work.fromOpenIndex++;
      out.push({ ...groupOf(f.summary), hits: [hit] });
    }
    // Found: sent at once; the same id elsewhere (a copied file) is the scan's to find.
    if (out.length > 0) return out;
    const ms = uuidTimeMs(id);
    const spans = (f: SearchFile): boolean => {
      const first = f.summary.firstTs === null ? NaN : Date.parse(f.summary.firstTs);
      const last = f.summary.lastTs === null ? NaN : Date.parse(f.summary.lastTs);
      return first - SPAN_SLACK_MS <= ms && ms <= last + SPAN_SLACK_MS;
    };
    for (const f of s.files) {
      if (out.length > 0 || s.cancelled) break;
      if (answered.has(f.summary.key) || !spans(f)) continue;
      const hits = await this.inWindow(f, id, s);
      if (hits.length > 0) {
        this.work.fromFileWindow++;
        out.push({ ...groupOf(f.summary), hits });
      }
    }
    return out;
  }

  /** The hits for `id` in the window of `f` where its time puts it (none when the file is not in time order there). */
  private async inWindow(f: SearchFile, id: string, s: RunningSearch): Promise<SearchHit[]> {
    const fh = await openRegular(f.path);
    if (!fh) return [];
    const work: LookupWork = { probedBytes: 0, countedBytes: 0 };
    try {
      const size = (await fh.stat()).size;
      const { from, to } = await windowFor(fh, size, uuidTimeMs(id), work);
      const buf = Buffer.allocUnsafe(to - from);
      const { bytesRead } = await fh.read(buf, 0, buf.length, from);
      work.probedBytes += bytesRead;
      const win = buf.subarray(0, bytesRead);
      const hits: SearchHit[] = [];
      const seen = new Set<number>();
      for (const k of idOffsets(win, id)) {
        const nl = win.lastIndexOf(10, k);
        if (nl < 0 && from > 0) continue; // the line began before the window: an id inside a payload
        const start = from + nl + 1;
        if (seen.has(start)) continue;
        seen.add(start);
        const line = await readLineAt(fh, start, size, MAX_LINE, work);
        if (line === null) continue;
        const hit = decodeAndMatch(line, s.query, s.filter, 0);
        if (hit) hits.push({ ...hit, line: await lineNumberAt(fh, start, work) });
      }
      return hits;
    } finally {
      this.work.probedBytes += work.probedBytes;
      this.work.countedBytes += work.countedBytes;
      await fh.close();
    }
  }

  private nextFile(s: RunningSearch): void {
    s.file++;
    s.pos = { offset: 0, line: 0 };
  }
}

/** A session's hits group, without its hits. */
function groupOf(summary: SessionSummary): Omit<SearchSessionHits, 'hits'> {
  return {
    key: summary.key,
    agent: summary.agent,
    sessionId: summary.sessionId,
    cwd: summary.cwd,
    title: summary.title,
  };
}
