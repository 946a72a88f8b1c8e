/**
 * The ApiBackend the transports use: the ledger core runs on a worker thread (one
 * ExplorerBackend there), and this main-thread side only routes calls, pushed events and
 * cancellations. A busy reader then never blocks the main thread (Electron's windows, the
 * serve mode's sockets), and a worker that runs out of heap (`resourceLimits`) ends alone.
 *
 * A worker that stops (crash, out of memory, killed) fails every pending call with
 * ApiError('internal', 'the reader stopped: …') — a pending branch with `unknown_outcome`: it
 * may have been written — and is restarted; every client gets a `reader` event naming why. The
 * subscriptions are taken up again by the new worker (clients keep their ids) and their clients
 * get a `reloaded` session event (or the whole library as `changed`) so they re-read what they
 * show. Branch outcomes by idempotency key are kept here (BranchOutcomes), so a restart forgets none.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type {
  ApiEvent,
  BranchRequest,
  OpenFileOutcome,
  BranchResult,
  SessionInfo,
  SessionKey,
  SessionSummary,
  Subscription,
} from '../../shared/api';
import { parseRequest } from '../../shared/api-schemas';
import { ApiError, type ApiBackend, type ApiClient } from '../api/api-backend';
import type { ExplorerBackendOptions } from '../api/explorer-backend';
import type { BackendWorkerData } from './backend-worker';
import { BranchOutcomes } from './branch-outcomes';
import { ForwardedSubscriptions } from './forwarded-subscriptions';
import { FreedMemory, mmapThresholdOnce, v8SettingsOnce } from './process-memory';
import { resolveWorkerEntry } from '../threads/thread-entry';
import { CANCEL_SLOTS, CANCELLED, fromWorker, type FromWorker, type WorkerStats } from './worker-protocol';

export interface WorkerBackendOptions {
  /** The worker's entry (a built backend-worker.js); default: see resolveWorkerEntry. */
  entry?: string | URL;
  /** Heap limits of the worker; default DEFAULT_RESOURCE_LIMITS. */
  resourceLimits?: ResourceLimits;
  /** Restarts allowed within RESTART_WINDOW_MS before the backend stops restarting. */
  maxRestarts?: number;
  /** What runs once no call is pending, after the answers went out; default FreedMemory's `afterWork`. */
  afterWork?: () => void;
}

/**
 * The worker's heap (memory follows the index, not the payloads). The old generation
 * may grow to ten times what the 1M-entry bench session keeps (~0.2 GB), under Electron's ~4 GB
 * pointer-compression cage that the main thread's heap shares. It stays under 2 GiB: with a
 * limit of 2 GiB or more (Node 20's V8; newer ones scale that bound with the machine's memory)
 * V8 lets the heap grow to 4× what survived its last full collection before it collects again,
 * below it at most 2× (V8's MemoryController::MaxGrowingFactor); at 3 GiB a session's garbage
 * showed as resident memory. The young generation is 16 MB (two 8 MB semi-spaces instead of
 * 16 MB ones): the parse of a line or an entry lives a moment. At 12 MB (4 MB semi-spaces; V8
 * rounds a third of it up to a power of two) the serving process peaked 8–11 MiB lower over a
 * 100 MB open and chart, but a leaf asked while the chart's series was built took over 150 ms
 * in 3 runs of 6 (1 of 8 at 16 MB; docs/performance.md, stop 31).
 */
export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 2047, maxYoungGenerationSizeMb: 16 };

const RESTART_WINDOW_MS = 60_000;
const CLOSE_TIMEOUT_MS = 5000;

interface Pending {
  method: string;
  clientId: string;
  resolve(res: unknown): void;
  reject(e: Error): void;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Routes the explorer API to an ExplorerBackend on a worker thread. */
export class WorkerBackend implements ApiBackend {
  /** The current worker thread and its start; replaced when a stopped worker is restarted. */
  private current: { worker: Worker; ready: Promise<void> };
  private readonly pending = new Map<number, Pending>();
  private readonly clients = new Map<string, ApiClient>();
  private readonly subs = new ForwardedSubscriptions();
  private readonly branches = new BranchOutcomes();
  private readonly statsWaiters: ((s: WorkerStats) => void)[] = [];
  /** Ids of cancelled calls, shared with the worker: a running projection sees them between turns. */
  private readonly cancelTable = new Int32Array(new SharedArrayBuffer(4 * CANCEL_SLOTS));
  private nextId = 1;
  /** Whether `afterWork` is to run once the answers that emptied `pending` went out. */
  private afterWorkDue = false;
  /** `w.afterWork`, else what the threads freed given back after work that grew the process. */
  private readonly afterWork: () => void;
  private closing = false;
  private closed: (() => void) | null = null;
  private restarts: number[] = [];
  /** Restarts happen only after a first successful start (a failed start is create()'s error). */
  private started = false;
  /** Set when the worker stopped too often and is no longer restarted. */
  private gaveUp: string | null = null;
  /** Every path opened so far, in order: a restarted worker opens them again (their keys stay the same). */
  private readonly openedPaths: string[];
  /** The secret survey as a client last set it (null: as `options` start it). */
  private surveyOn: boolean | null = null;

  private constructor(
    private readonly options: ExplorerBackendOptions,
    private readonly w: WorkerBackendOptions,
  ) {
    this.openedPaths = [...(options.openFiles ?? [])];
    // Its baseline is the process before the worker starts: the worker's start counts as growth.
    const freed = new FreedMemory();
    this.afterWork = w.afterWork ?? (() => freed.afterWork());
    this.current = this.spawn();
  }

  private get worker(): Worker {
    return this.current.worker;
  }

  private get ready(): Promise<void> {
    return this.current.ready;
  }

  /** Starts the worker and resolves once its backend listed the home (rejects if it cannot start). */
  static async create(options: ExplorerBackendOptions, w: WorkerBackendOptions = {}): Promise<WorkerBackend> {
    const b = new WorkerBackend(options, w);
    try {
      await b.ready;
    } catch (e) {
      b.closing = true;
      await b.worker.terminate();
      throw e;
    }
    b.started = true;
    return b;
  }

  /**
   * Runs `method` on the worker for `client`. With `signal`, aborting it answers the call at
   * once with a cancellation error and tells the worker to drop the call (a superseded request).
   */
  async call(method: string, rawReq: unknown, client: ApiClient, signal?: AbortSignal): Promise<unknown> {
    await this.admit(client);
    let req = rawReq;
    if (method === 'unsubscribe' && isRecord(rawReq) && typeof rawReq['subscription'] === 'string') {
      const workerId = this.subs.workerIdOf(client.id, rawReq['subscription']);
      if (workerId === undefined) {
        throw new ApiError('not_found', `no subscription ${rawReq['subscription']} for this client`);
      }
      req = { ...rawReq, subscription: workerId };
    }
    if (method === 'branch') return this.branch(rawReq, client);
    const res = await this.send(method, req, client.id, signal);
    if (method === 'subscribe' && isRecord(res) && typeof res['subscription'] === 'string') {
      return { subscription: this.subs.add(client.id, rawReq as Subscription, res['subscription']) };
    }
    if (method === 'unsubscribe' && isRecord(rawReq) && typeof rawReq['subscription'] === 'string') {
      this.subs.remove(rawReq['subscription']);
    }
    // A restarted worker starts the survey as the user last set it, not as the process started.
    if (method === 'setSecretSurvey' && isRecord(res) && typeof res['on'] === 'boolean') this.surveyOn = res['on'];
    return res;
  }

  /**
   * `call`, answered with its result as JSON text written by the worker (JsonAnswers: serve mode's
   * socket sends it as it is). A 100 MB session's context series is ~2 MB of JSON: rebuilt here
   * from a structured clone (25-31 ms) and serialized again (13-21 ms), it held this thread ~45 ms.
   * Subscriptions keep their objects (their ids are mapped here).
   */
  async callJson(
    method: string,
    rawReq: unknown,
    client: ApiClient,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    if (method === 'subscribe' || method === 'unsubscribe' || method === 'branch' || method === 'setSecretSurvey') {
      return JSON.stringify(await this.call(method, rawReq, client, signal));
    }
    await this.admit(client);
    const answer = await this.send(method, rawReq, client.id, signal, true);
    // (A result of `undefined` comes as it is, not as text: no JSON value.)
    return typeof answer === 'string' ? answer : undefined;
  }

  /**
   * A branch, at most once per idempotency key across worker restarts: its outcome is kept here.
   * A write is never cancelled (it is answered whatever happened meanwhile), so it takes no signal.
   */
  private branch(rawReq: unknown, client: ApiClient): Promise<BranchResult> {
    let req: BranchRequest;
    try {
      req = parseRequest('branch', rawReq);
    } catch {
      return this.send('branch', rawReq, client.id) as Promise<BranchResult>; // the worker names what is wrong
    }
    return this.branches.run(
      req,
      (recoverSince) => this.send('branch', rawReq, client.id, undefined, false, recoverSince) as Promise<BranchResult>,
    );
  }

  /** Before a call: refused once closing; the client is known (its pushes reach it); the worker is up. */
  private async admit(client: ApiClient): Promise<void> {
    if (this.closing) throw new ApiError('refused', 'the backend is closed');
    this.clients.set(client.id, client);
    await this.whenReady();
  }

  /**
   * The client went away: its subscriptions end here and in the worker, and its reads are
   * answered `cancelled` here and dropped or stopped there (no one is left to read them).
   * A branch is not: a write runs and its outcome is kept for a repeat of its key.
   */
  disconnect(client: ApiClient): void {
    for (const [id, p] of this.pending) {
      if (p.clientId !== client.id || p.method === 'branch') continue;
      this.pending.delete(id);
      p.reject(new ApiError('cancelled', 'cancelled: the client went away'));
    }
    this.clients.delete(client.id);
    this.subs.dropClient(client.id);
    if (!this.closing) this.worker.postMessage({ type: 'disconnect', clientId: client.id });
    this.settled();
  }

  /**
   * A call settled. Once none is pending, the work is over for now: what its threads freed is
   * given back (`afterWork`, when the work grew the process), after the answers went out
   * (setImmediate runs after this turn's socket writes) and only if no new call came meanwhile.
   * At once rather than on a timer, which would leave the memory resident for its length.
   */
  private settled(): void {
    if (this.pending.size > 0 || this.afterWorkDue || this.closing) return;
    this.afterWorkDue = true;
    setImmediate(() => {
      this.afterWorkDue = false;
      if (this.pending.size > 0 || this.closing) return;
      this.afterWork();
    });
  }

  /**
   * Opens files by path (ExplorerBackend.openFiles): for the desktop app's dialog, drops and
   * arguments only, never reachable from a client's `call`.
   */
  async openFiles(paths: string[]): Promise<OpenFileOutcome[]> {
    if (this.closing) throw new ApiError('refused', 'the backend is closed');
    await this.whenReady();
    const id = this.nextId++;
    const outcomes = await new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { method: 'openFiles', clientId: '', resolve, reject });
      this.worker.postMessage({ type: 'openFiles', id, paths });
    });
    const list = outcomes as OpenFileOutcome[];
    for (const o of list) if ('key' in o && !this.openedPaths.includes(o.path)) this.openedPaths.push(o.path);
    return list;
  }

  /** Asks the worker to release its watcher and files, then ends it. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.gaveUp !== null) return; // no worker left to close
    const done = new Promise<void>((resolve) => (this.closed = resolve));
    this.worker.postMessage({ type: 'close' });
    const timer = setTimeout(() => void this.worker.terminate(), CLOSE_TIMEOUT_MS);
    await done;
    clearTimeout(timer);
  }

  /** Ends the worker thread at once, as a crash would: pending calls fail and a new worker starts. */
  async killWorker(): Promise<void> {
    await this.worker.terminate();
  }

  /** The worker's counted work (calls run, cancelled calls dropped unrun). */
  async stats(): Promise<WorkerStats> {
    await this.whenReady();
    return new Promise((resolve) => {
      this.statsWaiters.push(resolve);
      this.worker.postMessage({ type: 'stats' });
    });
  }

  private async whenReady(): Promise<void> {
    if (this.gaveUp !== null)
      throw new ApiError('internal', `the reader stopped and was not restarted: ${this.gaveUp}`);
    try {
      await this.ready;
    } catch (e) {
      throw new ApiError('internal', `the reader could not start: ${(e as Error).message}`);
    }
  }

  private send(
    method: string,
    req: unknown,
    clientId: string,
    signal?: AbortSignal,
    json = false,
    recoverSince?: number,
  ): Promise<unknown> {
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      if (signal?.aborted) return reject(new ApiError('cancelled', CANCELLED));
      const onAbort = (): void => {
        if (!this.pending.delete(id)) return;
        reject(new ApiError('cancelled', CANCELLED));
        Atomics.store(this.cancelTable, id % CANCEL_SLOTS, id);
        this.worker.postMessage({ type: 'cancel', id });
        this.settled();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle =
        <T>(f: (v: T) => void) =>
        (v: T): void => {
          signal?.removeEventListener('abort', onAbort);
          f(v);
        };
      this.pending.set(id, { method, clientId, resolve: settle(resolve), reject: settle(reject) });
      try {
        this.worker.postMessage({
          type: 'call',
          id,
          method,
          req,
          clientId,
          ...(json && { json }),
          ...(recoverSince !== undefined && { recoverSince }),
        });
      } catch (e) {
        this.pending.delete(id);
        reject(new ApiError('bad_request', `the request is not plain data: ${(e as Error).message}`));
      }
    });
  }

  private spawn(): { worker: Worker; ready: Promise<void> } {
    v8SettingsOnce();
    const entry = resolveWorkerEntry(this.w.entry);
    const data: BackendWorkerData = {
      options: {
        ...this.options,
        openFiles: this.openedPaths,
        ...(this.surveyOn !== null && { secretSurvey: this.surveyOn }),
      },
      entry: entry.source,
      cancelTable: this.cancelTable.buffer as SharedArrayBuffer,
    };
    const worker = new Worker(entry.file, {
      workerData: data,
      resourceLimits: this.w.resourceLimits ?? DEFAULT_RESOURCE_LIMITS,
    });
    // Here, while the worker starts on its own thread: it loads a native module.
    mmapThresholdOnce();
    let lastError: string | null = null;
    const ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (raw: unknown) => {
        const m = fromWorker.safeParse(raw);
        if (!m.success) return;
        if (m.data.type === 'ready') resolve();
        else if (m.data.type === 'startFailed') reject(new Error(m.data.message));
        else this.onMessage(m.data);
      });
      worker.on('error', (e: Error) => {
        lastError = e.message;
        reject(e);
      });
      worker.on('messageerror', (e: Error) => (lastError = `a message could not be read: ${e.message}`));
      worker.on('exit', (code: number) => {
        reject(new Error(lastError ?? `its thread exited with code ${code}`));
        this.onExit(worker, lastError ?? `its thread exited with code ${code}`);
      });
    });
    // A failed start is reported through whenReady(); never as an unhandled rejection.
    ready.catch(() => {});
    return { worker, ready };
  }

  private onMessage(m: Exclude<FromWorker, { type: 'ready' | 'startFailed' }>): void {
    switch (m.type) {
      case 'result': {
        const p = this.pending.get(m.id);
        if (!p) return; // cancelled, or failed when an earlier worker stopped
        this.pending.delete(m.id);
        if (m.ok) p.resolve('json' in m ? m.json : m.res);
        else p.reject(new ApiError(m.error.code, m.error.message));
        this.settled();
        return;
      }
      case 'push':
        try {
          this.clients.get(m.clientId)?.push(m.event);
        } catch {
          // A client that fails to take an event must not stop the others.
        }
        return;
      case 'stats':
        this.statsWaiters.shift()?.(m.stats);
        return;
      case 'closed':
        void this.worker.terminate();
        return;
    }
  }

  private onExit(worker: Worker, reason: string): void {
    if (worker !== this.worker) return;
    const err = new ApiError('internal', `the reader stopped: ${reason}`);
    // A write in flight may or may not have reached the file: never reported as a plain failure.
    const unknown = new ApiError(
      'unknown_outcome',
      `the reader stopped while this branch was being written (${reason}): it may or may not have been ` +
        'appended; send it again with the same idempotency key to find out (it is never appended twice)',
    );
    for (const p of this.pending.values()) p.reject(p.method === 'branch' ? unknown : err);
    this.pending.clear();
    if (this.closing) {
      this.closed?.();
      return;
    }
    if (!this.started) return;
    const now = Date.now();
    this.restarts = this.restarts.filter((t) => now - t < RESTART_WINDOW_MS);
    if (this.restarts.length >= (this.w.maxRestarts ?? 3)) {
      this.gaveUp = reason;
      console.warn(`vak-explorer: the reader stopped ${this.restarts.length + 1} times in a minute; not restarting`);
      this.tellEveryone({ type: 'reader', change: 'stopped', reason });
      return;
    }
    this.restarts.push(now);
    console.warn(`vak-explorer: the reader stopped (${reason}); restarting it`);
    this.current = this.spawn();
    this.tellEveryone({ type: 'reader', change: 'restarted', reason });
    void this.resubscribe(reason);
  }

  /** An event for every client (a client that fails to take it must not stop the others). */
  private tellEveryone(event: ApiEvent): void {
    for (const c of this.clients.values()) {
      try {
        c.push(event);
      } catch {
        // (see onMessage's `push`)
      }
    }
  }

  /** A restarted worker takes the subscriptions up again; their clients are told to re-read. */
  private async resubscribe(reason: string): Promise<void> {
    try {
      await this.ready;
    } catch {
      return; // the new worker stopped too: onExit handles it
    }
    const why = `the reader restarted (${reason})`;
    for (const s of this.subs.all()) {
      try {
        const res = await this.send('subscribe', s.sub, s.clientId);
        if (isRecord(res) && typeof res['subscription'] === 'string') this.subs.rebind(s.id, res['subscription']);
        await this.tellReload(s.clientId, s.sub, why);
      } catch (e) {
        console.warn(`vak-explorer: could not resume a subscription after a restart: ${(e as Error).message}`);
      }
    }
  }

  private async tellReload(clientId: string, sub: Subscription, reason: string): Promise<void> {
    const client = this.clients.get(clientId);
    if (!client) return;
    if (sub.topic === 'library') {
      const changed = (await this.send('listSessions', {}, clientId)) as SessionSummary[];
      client.push({ type: 'library', changed, removed: [] });
      return;
    }
    const key: SessionKey = sub.key;
    const info = (await this.send('openSession', { key }, clientId)) as SessionInfo;
    client.push({
      type: 'session',
      key,
      change: 'reloaded',
      entryCount: info.entryCount,
      activeLeaf: info.activeLeaf,
      newIds: [],
      reason,
    });
  }
}
