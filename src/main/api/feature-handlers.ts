/**
 * Handlers of the feature methods (api-features.ts): context over time, search,
 * cost, export. Kept apart from explorer-backend.ts, which spreads `featureHandlers`
 * into its handler table.
 */
import type { FeatureApiMethods, PriceTable } from '../../shared/api-features';
import type { SessionKey, SessionSummary } from '../../shared/api';
import type { CancelSignal } from '../core/cancel';
import { parseSessionKey } from '../core/home';
import { planLeaf } from '../core/projection';
import { loadPriceTable } from '../cost/price-table';
import { sessionCost } from '../cost/session-cost';
import { projectionExportPieces } from '../export/projection-export';
import { sourceOfPlan } from '../export/projection-text';
import { sessionHtmlPieces } from '../export/session-html';
import type { OpenSession } from '../library/session-cache';
import type { OpenIndex } from '../search/id-lookup';
import { SearchError, SearchService } from '../search/search-service';
import { ApiError, type ApiClient } from './api-backend';
import { contextSeriesInSteps, SERIES_PAGE_BYTES } from './context-series';
import { ThrottledProgress } from './series-progress';
import { entryFateOf, projectedSearchOf } from './entry-fate-handler';
import { ExportStore } from './export-store';
import { runInSteps } from './in-steps';
import { leafIndex } from './leaf-context';
import { exportRedactor, NO_SURVEY, secretHandlers, type SurveyControl } from './secret-handlers';
import { redactedProjectionSource, withRedactionHeaderPieces } from '../secrets/redacted-export';

type FeatureMethod = keyof FeatureApiMethods;
export type FeatureHandlers = {
  [M in FeatureMethod]: (
    req: Parameters<FeatureApiMethods[M]>[0],
    client: ApiClient,
    signal?: CancelSignal,
  ) => Promise<ReturnType<FeatureApiMethods[M]>>;
};

/** What the features need from the backend. */
export interface FeatureDeps {
  home: string;
  /** The app's data folder (prices.json); null: bundled prices only. */
  userDataDir: string | null;
  session(key: SessionKey, client: ApiClient): Promise<OpenSession>;
  /** The session as opened, maybe still read in steps (what asks for it must not read it whole). */
  opened(key: SessionKey, client: ApiClient): Promise<OpenSession>;
  /** The library's summaries as known now. */
  summaries(): SessionSummary[];
  /** The sessions open now (search looks an entry id up in their indexes before it scans). */
  openSessions?(): Iterable<OpenSession>;
  /** The secret survey of the sessions not opened (survey-setting.ts). */
  survey?(): SurveyControl;
  /** What one answer of a context series may carry (context-series.ts; default SERIES_PAGE_BYTES). */
  seriesPageBytes?: number;
  /** When a series' build first tells its progress, and how often after (series-progress.ts). */
  seriesProgressMs?: { first: number; every: number };
}

/** An open session's index as search asks it: where an id's line is, read back from its file. */
export function openIndexOf(s: OpenSession): OpenIndex {
  return {
    key: s.key,
    find: (id) => {
      const i = s.ledger.indexOf(id);
      return i === undefined ? null : { line: s.ledger.index.line[i], bytes: s.ledger.rawLine(i) };
    },
  };
}

/** The features' state (running searches) over one backend. */
export class FeatureApi {
  readonly searches: SearchService;
  /** Exports being read in chunks. */
  readonly exports = new ExportStore();

  constructor(private readonly deps: FeatureDeps) {
    this.searches = new SearchService(deps.home, deps.summaries, () =>
      [...(deps.openSessions?.() ?? [])].map(openIndexOf),
    );
  }

  prices(): PriceTable {
    return loadPriceTable(this.deps.userDataDir);
  }

  /** A client went away: its searches stop. */
  dropClient(client: ApiClient): void {
    this.searches.dropClient(client.id);
    this.exports.dropClient(client.id);
  }

  session(key: SessionKey, client: ApiClient): Promise<OpenSession> {
    return this.deps.session(key, client);
  }

  opened(key: SessionKey, client: ApiClient): Promise<OpenSession> {
    return this.deps.opened(key, client);
  }

  survey(): SurveyControl {
    return this.deps.survey?.() ?? NO_SURVEY;
  }

  get seriesPageBytes(): number {
    return this.deps.seriesPageBytes ?? SERIES_PAGE_BYTES;
  }

  /** A series build's progress, sent to `send` as often as the backend's options say. */
  seriesProgress(send: (done: number, total: number) => void): ThrottledProgress {
    const ms = this.deps.seriesProgressMs;
    return new ThrottledProgress(send, undefined, ms?.first, ms?.every);
  }
}

const sessionIdOf = (key: SessionKey): string => parseSessionKey(key)?.sessionId ?? 'session';

/** The handlers, resolving the FeatureApi only when called (the backend builds it lazily). */
export function featureHandlers(api: () => FeatureApi): FeatureHandlers {
  return {
    getContextSeries: async (req, client, signal) => {
      const s = await api().session(req.key, client);
      // Sent as columns: a long session's series is the biggest answer the page parses.
      const pageBytes = api().seriesPageBytes;
      const leaf = leafIndex(s, req.leaf);
      const id = s.ledger.index.ids[leaf];
      const progress = api().seriesProgress((done, total) =>
        client.push({ type: 'seriesProgress', key: req.key, leaf: id, done, total }),
      );
      return contextSeriesInSteps(s.ledger, leaf, req, signal, { pageBytes, progress });
    },
    search: async (req, client) => {
      try {
        return await api().searches.search(req, client.id);
      } catch (e) {
        if (e instanceof SearchError) throw new ApiError(e.code, e.message);
        throw e;
      }
    },
    cancelSearch: async ({ searchId }, client) => ({ cancelled: api().searches.cancel(searchId, client.id) }),
    getCost: async ({ key, leaf }, client) => {
      const s = await api().session(key, client);
      return sessionCost(s.ledger, leafIndex(s, leaf ?? null), api().prices());
    },
    getPriceTable: async () => api().prices(),
    // In steps: a first fate of a long session scans every turn (the chart's scan, kept for both).
    getEntryFate: async (req, client, signal) => {
      const s = await api().session(req.key, client);
      return runInSteps(entryFateOf(s.ledger, leafIndex(s, req.leaf), req), signal);
    },
    searchProjected: async (req, client, signal) => {
      const s = await api().session(req.key, client);
      return runInSteps(projectedSearchOf(s.ledger, leafIndex(s, req.leaf), req), signal);
    },
    // Findings follow the read: asking for them opens the session and never reads it whole at once.
    ...secretHandlers(
      (key, client) => api().opened(key, client),
      () => api().survey(),
    ),
    // The export is only planned here: its text is written chunk by chunk as readExport asks.
    beginExport: async (req, client, signal) => {
      const s = await api().session(req.key, client);
      const leaf = leafIndex(s, req.leaf);
      const sessionId = sessionIdOf(req.key);
      // Redacted unless asked otherwise: every line read so far is scanned first.
      const redactor = await exportRedactor(req.key, req.unredacted);
      const redacted = redactor.secretCount;
      if (req.format === 'html') {
        const e = sessionHtmlPieces(s.ledger, leaf, { key: req.key, sessionId, redactor });
        const exportId = api().exports.begin(client.id, e.pieces);
        return { exportId, fileName: e.fileName, mimeType: 'text/html', redacted };
      }
      const lp = planLeaf(s.ledger, leaf, {
        plan: req.plan,
        profile: req.profile,
        overrides: new Map(Object.entries(req.overrides ?? {})),
        signal,
      });
      // The plan is kept for later chunks: their requests' signals stop them, never this one's.
      const e = projectionExportPieces(redactedProjectionSource(sourceOfPlan(lp), redactor), req.format, sessionId);
      return {
        exportId: api().exports.begin(client.id, withRedactionHeaderPieces(e.pieces, e.mimeType, redacted)),
        fileName: e.fileName,
        mimeType: e.mimeType as 'application/json' | 'text/markdown',
        redacted,
      };
    },
    readExport: async ({ exportId }, _client, signal) => api().exports.read(exportId, signal),
    endExport: async ({ exportId }) => ({ ended: api().exports.end(exportId) }),
  };
}
