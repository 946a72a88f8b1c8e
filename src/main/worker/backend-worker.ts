/**
 * The backend worker thread's entry: one ExplorerBackend (the ledger core, library and
 * watcher), driven by messages from WorkerBackend on the main thread. Calls start one per
 * turn of this thread's event loop, so a `cancel` that arrives while another call is busy
 * is seen before the cancelled call starts.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { ApiError, errorPayload, type ApiClient } from '../api/api-backend';
import { ExplorerBackend, type ExplorerBackendOptions } from '../api/explorer-backend';
import { noCoreWork } from '../core/core-work';
import { sharedScanThreadId, stopSharedScanThread } from '../secrets/scan-thread';
import { FairQueue } from './fair-queue';
import { currentThreadId, lowerThisThreadPriority } from './thread-priority';
import { warmUp } from './warm-up';
import {
  callCancelled,
  MAX_ANSWER_CHARS,
  toWorker,
  type FromWorker,
  type ToWorker,
  type WorkerStats,
} from './worker-protocol';

/** What WorkerBackend hands this thread as `workerData`. */
export interface BackendWorkerData {
  options: ExplorerBackendOptions;
  /** Shared with the main thread: ids of cancelled calls (see CANCEL_SLOTS). */
  cancelTable: SharedArrayBuffer;
  /** Set by the dev bootstrap: the TypeScript entry it imported (unused here). */
  entry?: string;
}

type Call = Extract<ToWorker, { type: 'call' }>;

function requirePort(): MessagePort {
  if (!parentPort) throw new Error('backend-worker.ts runs only as a worker thread');
  return parentPort;
}
const port = requirePort();
const data = workerData as BackendWorkerData;
const cancelTable = new Int32Array(data.cancelTable);

const post = (m: FromWorker): void => port.postMessage(m);
const stats: Omit<WorkerStats, 'core' | 'secretScanThread' | 'osThread'> = {
  callsRun: 0,
  callsDroppedUnrun: 0,
  callsAbortedRunning: 0,
  callsEndedCancelled: 0,
};
const clients = new Map<string, ApiClient>();
const queue = new FairQueue<Call>();
const running = new Map<number, { controller: AbortController; clientId: string; method: string }>();
/** Calls of one client running at once (long ones run in steps): past this its next ones wait their turn. */
const MAX_RUNNING_PER_CLIENT = 4;
const runningOf = new Map<string, number>();
const mayStart = (clientId: string): boolean => (runningOf.get(clientId) ?? 0) < MAX_RUNNING_PER_CLIENT;
let pumping = false;
let backend: ExplorerBackend | null = null;

/** The worker-side stand-in for a main-thread client: its pushes travel back by id. */
function clientOf(id: string): ApiClient {
  let c = clients.get(id);
  if (!c) {
    c = { id, push: (event) => post({ type: 'push', clientId: id, event }) };
    clients.set(id, c);
  }
  return c;
}

function answer(id: number, run: () => Promise<unknown>, signal: AbortSignal, json: boolean): void {
  run().then(
    (res) => {
      if (signal.aborted) return; // the main thread answered the caller already
      try {
        // (A result that is no JSON value, `undefined`, goes as it is: its frame has no `res`.)
        const text = json && res !== undefined ? JSON.stringify(res) : undefined;
        if (text !== undefined && text.length > MAX_ANSWER_CHARS) {
          const message = `the answer would be ${text.length} characters, over the ${MAX_ANSWER_CHARS}-character limit: ask for less`;
          post({ type: 'result', id, ok: false, error: { code: 'too_large', message } });
          return;
        }
        post(text !== undefined ? { type: 'result', id, ok: true, json: text } : { type: 'result', id, ok: true, res });
      } catch (e) {
        // Not structured-clone safe: a bug of ours, reported as this call's failure only.
        post({ type: 'result', id, ok: false, error: errorPayload(e) });
      }
    },
    (e: unknown) => {
      const error = errorPayload(e);
      if (error.code === 'cancelled') stats.callsEndedCancelled++;
      if (!signal.aborted) post({ type: 'result', id, ok: false, error });
    },
  );
}

/**
 * Starts the next queued call (clients in turn, see FairQueue), then yields to the event loop
 * before the one after.
 */
function pump(): void {
  const next = backend ? queue.take(mayStart) : undefined;
  if (!next || !backend) {
    pumping = false;
    return;
  }
  const b = backend;
  const controller = new AbortController();
  running.set(next.id, { controller, clientId: next.clientId, method: next.method });
  runningOf.set(next.clientId, (runningOf.get(next.clientId) ?? 0) + 1);
  stats.callsRun++;
  answer(
    next.id,
    () =>
      (next.recoverSince !== undefined && next.method === 'branch'
        ? b.branchAfterUnknownOutcome(next.req, next.recoverSince)
        : b.call(next.method, next.req, clientOf(next.clientId), callCancelled(cancelTable, next.id, controller.signal))
      ).finally(() => finished(next)),
    controller.signal,
    next.json === true,
  );
  if (queue.size > 0) setImmediate(pump);
  else pumping = false;
}

/** A call ended: its client may start another. */
function finished(c: Call): void {
  running.delete(c.id);
  const n = (runningOf.get(c.clientId) ?? 1) - 1;
  if (n > 0) runningOf.set(c.clientId, n);
  else runningOf.delete(c.clientId);
  wake();
}

function wake(): void {
  if (!pumping && queue.size > 0) {
    pumping = true;
    setImmediate(pump);
  }
}

function enqueue(c: Call): void {
  queue.push(c);
  wake();
}

function cancel(id: number): void {
  if (queue.remove(id)) {
    stats.callsDroppedUnrun++;
    return;
  }
  const r = running.get(id);
  if (r && !r.controller.signal.aborted) {
    r.controller.abort();
    stats.callsAbortedRunning++;
  }
}

/**
 * The client went away: its waiting calls are dropped and its running ones stopped (no one reads
 * them; the main thread answered them already). A branch is never dropped: a write runs and answers.
 */
function dropClientCalls(clientId: string): void {
  for (const c of queue.dropClient(clientId)) {
    if (c.method === 'branch') queue.push(c);
    else stats.callsDroppedUnrun++;
  }
  for (const r of running.values()) {
    if (r.clientId === clientId && r.method !== 'branch' && !r.controller.signal.aborted) {
      r.controller.abort();
      stats.callsAbortedRunning++;
    }
  }
}

async function onMessage(raw: unknown): Promise<void> {
  const parsed = toWorker.safeParse(raw);
  if (!parsed.success) return; // only WorkerBackend talks to this port; nothing to answer
  const m = parsed.data;
  switch (m.type) {
    case 'call':
      if (!backend)
        post({ type: 'result', id: m.id, ok: false, error: new ApiError('internal', 'not started').toPayload() });
      else enqueue(m);
      return;
    case 'cancel':
      cancel(m.id);
      return;
    case 'disconnect': {
      dropClientCalls(m.clientId);
      const c = clients.get(m.clientId);
      if (c && backend) backend.disconnect(c);
      clients.delete(m.clientId);
      return;
    }
    case 'openFiles':
      if (!backend) post({ type: 'result', id: m.id, ok: false, error: { code: 'internal', message: 'not started' } });
      else
        backend.openFiles(m.paths).then(
          (res) => post({ type: 'result', id: m.id, ok: true, res }),
          (e: unknown) => post({ type: 'result', id: m.id, ok: false, error: errorPayload(e) }),
        );
      return;
    case 'stats':
      post({
        type: 'stats',
        stats: {
          ...stats,
          core: backend ? backend.coreWork() : noCoreWork(),
          secretScanThread: sharedScanThreadId(),
          osThread: currentThreadId(),
        },
      });
      return;
    case 'close':
      await backend?.close();
      backend = null;
      await stopSharedScanThread();
      post({ type: 'closed' });
      port.close();
      return;
  }
}

// Below the main thread's priority, so routing and windows never wait for a core (thread-priority.ts).
lowerThisThreadPriority();
port.on('message', (m: unknown) => void onMessage(m));
ExplorerBackend.create(data.options).then(
  (b) => {
    backend = b;
    // A call waiting here to start is one a first open's next chunk waits for, as one running.
    b.countQueuedCalls(() => queue.size);
    post({ type: 'ready' });
    setImmediate(() => {
      if (!backend) return;
      warmUp();
      // The most recently used session is the likeliest next open: its kept index read while idle.
      const idle = (): boolean => queue.size === 0 && running.size === 0;
      backend.readKeptIndexAhead(idle).catch((e: unknown) => {
        console.warn(`vak-explorer: reading a kept index ahead failed: ${(e as Error).message}`);
      });
    });
  },
  (e: unknown) => post({ type: 'startFailed', message: e instanceof Error ? e.message : String(e) }),
);
