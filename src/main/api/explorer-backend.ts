import type { CancelSignal } from '../core/cancel';
import { join } from 'node:path';
import type {
  ApiMethod,
  ApiRequest,
  ApiResponse,
  BranchRequest,
  BranchResult,
  HomeInfo,
  LeafRequest,
  OpenFileOutcome,
  SessionKey,
  SessionSummary,
} from '../../shared/api';
import { API_METHODS, isApiMethod, parseRequest } from '../../shared/api-schemas';
import { chainToRoot } from '../core/chain';
import { addCoreWork, noCoreWork, type CoreWork } from '../core/core-work';
import { LedgerChangedError } from '../core/ledger';
import { turnCacheOf } from '../core/turn-cache';
import { HomeWatcher } from '../library/home-watcher';
import { userPricesPath } from '../cost/price-table';
import { watchPrices } from '../cost/prices-watch';
import { IndexStore } from '../library/index-store';
import { ensureDemoCopy } from '../library/resolve-home';
import { SessionCache, type OpenSession } from '../library/session-cache';
import { SessionLibrary } from '../library/session-library';
import { OpenedFiles } from '../library/opened-files';
import { OpenedFilesWatcher } from '../library/opened-files-watcher';
import { RecentFiles } from '../library/recent-files';
import {
  ApiError,
  cancelledError,
  throwIfCancelled,
  unexpectedErrorText,
  type ApiBackend,
  type ApiClient,
} from './api-backend';
import { FIRST_ANSWER_BYTES, FIRST_READ_BYTES, type ExplorerBackendOptions } from './backend-options';
import { BranchIdempotency } from './branch-idempotency';
import { CallLull } from './call-lull';
import { ReadTurns } from '../library/read-turns';
import { SecretSurvey } from '../secrets/survey';
import { AppSettingsFile } from './app-settings';
import { SurveySetting } from './survey-setting';
import { firstScreenAnswered, onScannerAdded, secretCounts, sessionScanner } from '../secrets/session-secrets';
import { appendBranchOnce, writtenSince, type BranchHost } from './branch-writes';
import { entrySlice } from './entry-slice';
import { leafContextInSteps } from './leaf-context';
import { chainItems, leafView, projectedMessage, projectedMessages } from './leaf-view';
import { planTurns } from './plan-turns';
import { rawLine } from './raw-line';
import { acquireHolding, acquireSession, type SessionHow } from './session-access';
import { activeWork, workItems } from './session-info';
import { featureHandlers, FeatureApi } from './feature-handlers';
import { allSecretCounts, NO_SURVEY } from './secret-handlers';
import { SecretCountsNews } from './secret-counts-news';
import { Subscriptions } from './subscriptions';
import { logFailure, SessionNews } from './session-news';
import { activeLeafPage, treeRows } from './tree-rows';

export { FIRST_READ_BYTES, type ExplorerBackendOptions } from './backend-options';

type Handlers = {
  [M in ApiMethod]: (req: ApiRequest<M>, client: ApiClient, signal?: CancelSignal) => Promise<ApiResponse<M>>;
};

/**
 * Times a request is answered again after the file changed under it (LedgerChangedError: the
 * session is read again whole first); past that the file keeps changing and the request is refused.
 */
const REREAD_RETRIES = 2;

/**
 * The check of a kept index starts once no call ran for this long (a client's next request
 * follows an answer within a round trip and a render), or this long after it was due at most.
 */
const CHECK_LULL_MS = 300;
const CHECK_WAIT_MAX_MS = 3000;
/** The secret survey steps only once no call ran for this long. */
const SURVEY_LULL_MS = 300;

/**
 * The explorer's API, whatever the transport: every method of `ApiMethods`,
 * validated at runtime, over one home's library, open sessions and watcher,
 * pushing library and session changes to the clients that subscribed.
 */
export class ExplorerBackend implements ApiBackend {
  readonly library: SessionLibrary;
  readonly cache: SessionCache;
  private readonly store: IndexStore | null;
  private readonly subs = new Subscriptions();
  /** What followers and library subscribers hear of changes (session-news.ts). */
  private readonly news: SessionNews;
  private readonly writes = new BranchIdempotency();
  private watcher: HomeWatcher | null = null;
  /** Files opened by path (opened-files.ts), their watcher, and the Recent list (in the data folder). */
  readonly opened: OpenedFiles;
  private openedWatcher: OpenedFilesWatcher | null = null;
  private readonly recent: RecentFiles | null;
  private stopPrices: (() => void) | null = null;
  private lockTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly lull = new CallLull();
  /** Calls the transport holds that have not started yet (the worker's queue): set by `countQueuedCalls`. */
  private queuedCalls: () => number = () => 0;
  /** A first open's steps read each chunk after the calls in flight (library/read-turns.ts). */
  private readonly readTurns = new ReadTurns(() => this.lull.running + this.queuedCalls());
  /** Counts the secrets of the sessions not opened, while the user's setting says so (secrets/survey.ts). */
  private survey: SecretSurvey | null = null;
  private surveySetting: SurveySetting | null = null;
  /** Every session's secret counts, pushed to library subscribers as they move (a client asks them once). */
  private readonly secretNews = new SecretCountsNews(
    () => allSecretCounts(this.surveySetting ?? NO_SURVEY),
    (counts) => this.subs.pushLibrary({ type: 'secretCounts', counts }),
    () => secretCounts().flatMap((c) => sessionScanner(c.key) ?? []),
  );
  private readonly stopFollowingScanners = onScannerAdded((s) => this.secretNews.follow(s));

  private constructor(
    readonly info: HomeInfo,
    private readonly opts: ExplorerBackendOptions,
  ) {
    this.opened = new OpenedFiles(opts.maxOpenedBytes);
    this.recent = opts.userDataDir === undefined ? null : new RecentFiles(opts.userDataDir);
    this.library = new SessionLibrary(info.home, {}, this.opened);
    const store = opts.userDataDir === undefined ? null : new IndexStore(join(opts.userDataDir, 'index-cache'));
    this.store = store;
    this.cache = new SessionCache(info.home, opts.cacheSize ?? 4, store, undefined, this.opened);
    this.news = new SessionNews({
      cache: this.cache,
      library: this.library,
      subs: this.subs,
      closed: () => this.closed,
      watching: () => this.watcher !== null,
    });
    // A kept index carries the active chain's work fold: a reopen folds only what came since.
    this.cache.onReread((key, reason) => this.news.reread(key, reason));
    this.cache.checksWaitFor(() => this.lull.wait(CHECK_LULL_MS, CHECK_WAIT_MAX_MS));
    this.cache.beforeKeep((s) => {
      const ix = s.ledger.index;
      if (ix.count > 0 && !s.reading) activeWork(s, chainToRoot(ix, ix.activeLeaf));
    });
  }

  /** Builds a backend over a home: lists it once and starts watching. */
  static async create(opts: ExplorerBackendOptions): Promise<ExplorerBackend> {
    const home = opts.isDemo && opts.demoCopyDir ? ensureDemoCopy(opts.home, opts.demoCopyDir) : opts.home;
    const info = { home, isDemo: opts.isDemo, label: opts.label };
    const b = new ExplorerBackend(opts.userHome === undefined ? info : { ...info, userHome: opts.userHome }, opts);
    const step = opts.firstReadBytes ?? FIRST_READ_BYTES;
    if (Number.isFinite(step)) {
      b.cache.readInSteps({
        firstBytes: Math.min(step, FIRST_ANSWER_BYTES),
        stepBytes: step,
        turns: b.readTurns,
        // A step hands the scan more lines: its counts are news again.
        onStep: (key) =>
          void b.news
            .homeChanged({ type: 'changed', key }, 'step')
            .then(() => b.secretNews.poke())
            .catch(logFailure),
        onHashesChecked: (key, result) => b.news.hashesChecked(key, result.mismatches),
      });
    }
    if (opts.watch !== false) {
      b.openedWatcher = new OpenedFilesWatcher((c) => b.homeChanged(c), {
        rescanMs: opts.rescanMs,
      });
    }
    // Opened before the listing, which lists them too (their outcomes: `serve --file` checked them first).
    b.openPaths(opts.openFiles ?? []);
    await b.library.list();
    if (opts.watch !== false) {
      b.watcher = new HomeWatcher(home, (c) => b.homeChanged(c), {
        rescanMs: opts.rescanMs,
      });
      b.watcher.start();
      const prices = userPricesPath(opts.userDataDir ?? null);
      if (prices !== null) b.stopPrices = watchPrices(prices, () => b.subs.pushLibrary({ type: 'prices' }));
    }
    b.startSurvey();
    const poll = opts.lockPollMs ?? 5000;
    if (poll > 0) {
      b.lockTimer = setInterval(() => void b.news.pollLocks().catch(logFailure), poll);
      b.lockTimer.unref();
    }
    return b;
  }

  /** A file of the home changed (the watchers): followers told; an open session's scan may count more. */
  private homeChanged(c: Parameters<SessionNews['homeChanged']>[0]): void {
    void this.news
      .homeChanged(c)
      .then(() => this.secretNews.poke())
      .catch(logFailure);
  }

  /** The survey, on or off as the kept setting (the desktop app) or the option says. */
  private startSurvey(): void {
    const cache = this.cache;
    const dataDir = this.opts.keepSettings === true ? this.opts.userDataDir : undefined;
    const settings = dataDir === undefined ? null : new AppSettingsFile(dataDir);
    this.survey = new SecretSurvey({
      on: SurveySetting.startsOn(settings, this.opts.secretSurvey === true),
      sessions: () =>
        this.library.all().flatMap((s) => {
          const file = this.opened.fileOf(this.info.home, s.key);
          return file ? [{ key: s.key, file }] : [];
        }),
      isOpen: (key) => sessionScanner(key) !== undefined,
      // A call running or just answered (the user opens or reads), a session still read in steps,
      // or an open's scan not done: the survey waits.
      foregroundBusy: () =>
        !this.lull.quiet(SURVEY_LULL_MS) ||
        cache.keys().some((k) => cache.peek(k)?.reading === true) ||
        secretCounts().some((c) => c.scanning),
    });
    this.survey.onChange(() => this.secretNews.poke(true));
    this.survey.start();
    this.surveySetting = new SurveySetting(this.survey, settings, (survey) =>
      this.subs.pushLibrary({ type: 'secretSurvey', survey }),
    );
  }

  /** Calls waiting to start where the transport queues them: a first open's steps wait for those too. */
  countQueuedCalls(count: () => number): void {
    this.queuedCalls = count;
  }

  /** Validates `rawReq` for `method` and runs it; rejects with ApiError (`cancelled` once `signal` aborts). */
  async call(method: string, rawReq: unknown, client: ApiClient, signal?: CancelSignal): Promise<unknown> {
    if (this.closed) throw new ApiError('refused', 'the backend is closed');
    if (!isApiMethod(method)) {
      throw new ApiError('bad_request', `unknown method ${JSON.stringify(method)}; known: ${API_METHODS.join(', ')}`);
    }
    let req: unknown;
    try {
      req = parseRequest(method, rawReq);
    } catch (e) {
      throw new ApiError('bad_request', (e as Error).message);
    }
    this.lull.begin();
    try {
      throwIfCancelled(signal);
      const handler = this.handlers[method] as (r: unknown, c: ApiClient, s?: CancelSignal) => Promise<unknown>;
      const res = await this.answerAsRead(() => handler(req, client, signal));
      // A write (branch) that ran is answered whatever happened meanwhile; a read's answer is dropped.
      if (method !== 'branch') throwIfCancelled(signal);
      return res;
    } catch (e) {
      // Work stopped by the abort (the core throws the signal's reason) is a cancellation.
      if (signal?.aborted && method !== 'branch') throw cancelledError();
      if (e instanceof ApiError) throw e;
      throw new ApiError('internal', `${method} failed: ${unexpectedErrorText(e)}`);
    } finally {
      this.lull.end();
      this.readTurns.changed();
    }
  }

  /**
   * Runs a request; when a line it read back no longer holds the entry the reading put there (the
   * file was rewritten under it), the session is read again whole (followers told) and the request
   * answered again from that reading: never from the other line, never as an internal error.
   */
  private async answerAsRead<T>(run: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await run();
      } catch (e) {
        if (!(e instanceof LedgerChangedError)) throw e;
        if (attempt >= REREAD_RETRIES || !(await this.cache.rereadChanged(e.ledger))) {
          throw new ApiError('refused', `${e.message}; the file keeps changing, ask again`);
        }
      }
    }
  }

  /**
   * `branch` again after an attempt whose outcome is unknown (sent at `since`, ms; its worker
   * stopped): the directive that attempt would have written is looked for first, under its
   * parent, dated since then; only when the file has none is it appended. At most once per key.
   */
  async branchAfterUnknownOutcome(rawReq: unknown, since: number): Promise<BranchResult> {
    if (this.closed) throw new ApiError('refused', 'the backend is closed');
    let req: BranchRequest;
    try {
      req = parseRequest('branch', rawReq);
    } catch (e) {
      throw new ApiError('bad_request', (e as Error).message);
    }
    try {
      return await this.writes.run(
        req,
        async () => (await writtenSince(this.writer(), req, since)) ?? appendBranchOnce(this.writer(), req),
      );
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw new ApiError('internal', `branch failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /**
   * Opens files by path (the desktop app's dialog, drop, arguments; never a client's request):
   * each checked (openedFiles.add), listed under "Opened files", watched, and put first on the
   * Recent list. Library subscribers hear of the new rows and get the outcomes (`opened`), so the
   * window shows the first file opened and says why any was refused.
   */
  async openFiles(paths: string[]): Promise<OpenFileOutcome[]> {
    if (this.closed) throw new ApiError('refused', 'the backend is closed');
    const outcomes = this.openPaths(paths);
    const changed: SessionSummary[] = [];
    for (const o of outcomes) {
      if (!('key' in o)) continue;
      const s = this.library.get(o.key) ?? this.library.refresh(o.key);
      if (s && !changed.some((c) => c.key === s.key)) changed.push(s);
    }
    if (changed.length > 0) this.subs.pushLibrary({ type: 'library', changed, removed: [] });
    this.subs.pushLibrary({ type: 'opened', outcomes });
    return outcomes;
  }

  /** Registers and watches files opened by path, and keeps them on the Recent list. */
  private openPaths(paths: string[]): OpenFileOutcome[] {
    return paths.map((p) => {
      const o = this.opened.add(p);
      if ('key' in o) {
        const f = this.opened.get(o.key);
        if (f) this.openedWatcher?.add(f);
        this.recent?.add(o.path);
      }
      return o;
    });
  }

  /** The core's counted work over the sessions open now (WorkerBackend.stats; work-count tests). */
  coreWork(): CoreWork {
    const w = noCoreWork();
    for (const key of this.cache.keys()) {
      const s = this.cache.peek(key);
      if (s) addCoreWork(w, s.ledger.stats, turnCacheOf(s.ledger).stats);
    }
    return w;
  }

  /** The client went away: drop its subscriptions and let its sessions close. */
  disconnect(client: ApiClient): void {
    this.featureApi?.dropClient(client);
    for (const s of this.subs.dropClient(client)) if (s.topic === 'session') this.cache.unpin(s.key);
  }

  /**
   * Reads the most recently used session's kept index ahead of its open, while `idle()` (IndexStore.
   * readAhead): a restart's reopen of where the user was then starts from a decoded, checked index.
   */
  readKeptIndexAhead(idle: () => boolean): Promise<string | null> {
    return this.store?.readAhead(idle) ?? Promise.resolve(null);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopFollowingScanners();
    this.secretNews.close();
    void this.survey?.stop();
    this.watcher?.close();
    this.openedWatcher?.close();
    this.stopPrices?.();
    if (this.lockTimer) clearInterval(this.lockTimer);
    await this.cache.close();
  }

  /** An open session, opening it when needed: see acquireSession. */
  private async session(key: SessionKey, client?: ApiClient, how: SessionHow = 'any'): Promise<OpenSession> {
    return acquireSession(this.cache, key, client, how);
  }

  /** An open session that holds entry `id` (null: its active leaf): see acquireHolding. */
  private async sessionHolding(key: SessionKey, client: ApiClient, id: string | null): Promise<OpenSession> {
    return (await acquireHolding(this.cache, key, client, id)).s;
  }

  /**
   * The session of a leaf request, with the leaf's plan made (in steps) and kept. A leaf that
   * waited for a first read's end is planned in one go, before the step that announces that end
   * (queued for the next turn: SessionCache.acquireWhole). That step sums every entry read, and its
   * event makes the page lay its tree out again: between the plan's steps, the two would share the
   * cores with it while the user waits for these panes. (A cancel is then seen at the plan's end.)
   */
  private async leafPlanned(req: LeafRequest, client: ApiClient, signal?: CancelSignal): Promise<OpenSession> {
    const { s, waited } = await acquireHolding(this.cache, req.key, client, req.leaf);
    await leafContextInSteps(s, req, signal, waited ? Infinity : undefined);
    return s;
  }

  private entryIndex(s: OpenSession, id: string): number {
    const i = s.ledger.indexOf(id);
    if (i === undefined) throw new ApiError('not_found', `no entry ${id} in ${s.key}`);
    return i;
  }

  // The features (feature-handlers.ts): built on first use, after the constructor ran.
  private featureApi: FeatureApi | null = null;
  private features(): FeatureApi {
    this.featureApi ??= new FeatureApi({
      home: this.info.home,
      userDataDir: this.opts.userDataDir ?? null,
      session: (key, client) => this.session(key, client, 'whole'),
      opened: (key, client) => this.session(key, client),
      summaries: () => this.library.all(),
      openSessions: () => this.cache.keys().flatMap((key) => this.cache.peek(key) ?? []),
      survey: () => this.surveySetting ?? NO_SURVEY,
      seriesPageBytes: this.opts.seriesPageBytes,
      seriesProgressMs: this.opts.seriesProgressMs,
    });
    return this.featureApi;
  }

  private readonly handlers: Handlers = {
    ...featureHandlers(() => this.features()),
    getHome: async () => ({ ...this.info }),
    listSessions: async () => this.library.list(),
    listRecentFiles: async () => ({ files: this.recent?.list() ?? [], openByPath: this.opts.openByPath === true }),
    openRecentFile: async ({ path }) => {
      if (this.opts.openByPath !== true) {
        throw new ApiError(
          'refused',
          'serve mode opens only the files given on its command line: run `vak-explorer serve --file FILE`, or open it in the desktop app',
        );
      }
      // Only a path the user opened before: a request names no other file.
      if (!this.recent?.paths().includes(path)) throw new ApiError('not_found', `${path} is not on the Recent list`);
      const [outcome] = await this.openFiles([path]);
      return outcome;
    },
    openSession: async ({ key }, client) => {
      const s = await this.session(key, client);
      return this.news.infoOf(s);
    },
    getTreeRows: async ({ key, start, count, foldAudit, holding }, client) => {
      const s = await this.session(key, client);
      return holding ? activeLeafPage(s, count, foldAudit) : treeRows(s, start, count, foldAudit);
    },
    findRow: async ({ key, id, foldAudit }, client) => {
      const s = await this.sessionHolding(key, client, id);
      return { row: s.layout.findRow(this.entryIndex(s, id), foldAudit) };
    },
    getEntry: async (req, client) => {
      const s = await this.sessionHolding(req.key, client, req.id);
      return entrySlice(s, this.entryIndex(s, req.id), req.id, req);
    },
    // Each plans its leaf in steps first (leafContextInSteps), then answers from the kept plan.
    getLeafView: async (req, client, signal) => {
      const view = leafView(await this.leafPlanned(req, client, signal), req, signal);
      firstScreenAnswered(req.key);
      return view;
    },
    getChainItems: async (req, client, signal) => chainItems(await this.leafPlanned(req, client, signal), req, signal),
    getProjectedMessage: async (req, client, signal) =>
      projectedMessage(await this.leafPlanned(req, client, signal), req, signal),
    getProjectedMessages: async (req, client, signal) =>
      projectedMessages(await this.leafPlanned(req, client, signal), req, signal),
    getPlanTurns: async (req, client, signal) => planTurns(await this.leafPlanned(req, client, signal), req, signal),
    getWarnings: async ({ key }, client) => (await this.session(key, client)).ledger.warnings(),
    getWork: async ({ key }, client) => workItems(await this.session(key, client)),
    getLine: async ({ key, offset, maxBytes }, client) => rawLine(await this.session(key, client), offset, maxBytes),
    // At most once per idempotency key: a client that lost the reply may ask again and get this same answer.
    branch: async (req) => this.writes.run(req, () => appendBranchOnce(this.writer(), req)),
    subscribe: async (sub, client) => {
      const s = sub.topic === 'session' ? await this.session(sub.key, client, 'pinned') : null;
      // Its open came by another way (serve mode's early answers): what changed since is told (SessionNews.joined).
      const catchUpFrom =
        s && sub.topic === 'session' && sub.since ? this.news.joined(client, s, sub.since) : undefined;
      const subscription = this.subs.add(client, sub, catchUpFrom);
      if (sub.topic === 'library') this.news.libraryJoined(client);
      return { subscription };
    },
    unsubscribe: async ({ subscription }, client) => {
      const sub = this.subs.remove(client, subscription);
      if (!sub) throw new ApiError('not_found', `no subscription ${subscription} for this client`);
      if (sub.topic === 'session') this.cache.unpin(sub.key);
      return {};
    },
  };

  /** What the write (branch-writes.ts) needs of this backend. */
  private writer(): BranchHost {
    return { library: this.library, cache: this.cache, news: this.news };
  }
}
