/**
 * The secret scan's own thread, seen from a reading thread (the backend worker, or the CLI's
 * thread): started on the first batch, shared by every session this thread reads, holding the
 * process open only while it has batches to answer. The reading thread then only copies lines
 * into batches; the gate, the parse and the preset run there.
 *
 * When the thread cannot start (its entry missing from a build), the batches are scanned here
 * in short steps instead, and that is logged once.
 */
import { Worker } from 'node:worker_threads';
import { resolveWorkerEntry, SCAN_WORKER } from '../threads/thread-entry';
import { readLinesInFile } from './read-back';
import { scanBatch, type BatchResult, type LineBatch } from './scan-batch';
import type { GateKind } from './secret-gate-wasm';
import type { FromScanThread, ScanThreadData, ToScanThread } from './scan-protocol';
import { SCAN_NICE } from './scan-priority';

/** What a batch came to: scanned (`result`), dropped unscanned (null), or lost with a stopped thread. */
export type BatchDone = (result: BatchResult | null, lost: boolean) => void;

/** Bytes of a pooled batch buffer (a longer line gets a buffer of its own size). */
export const BATCH_BYTES = 1 << 20;
/**
 * Batch buffers made (and their pages touched) when the thread is made, and kept for its life:
 * while the scan thread keeps up, a read cycles through them and touches no fresh memory. Three
 * are enough for that: the scan thread hands each back as soon as it has gated it, and a warm
 * 100 MB read took no fresh buffer with three, as with eight; the five more were 5 MiB that the
 * serving process kept resident for nothing (docs/performance.md, stop 31).
 */
export const POOL_BUFFERS = 3;

export interface ScanThreadOptions {
  /** Pooled batch buffers (POOL_BUFFERS). */
  poolBuffers?: number;
  /** The scan thread's nice value (scan-priority.ts); null keeps this thread's. */
  nice?: number | null;
  /** How long the lint waits after a full batch (a read in progress); default in secret-scan-worker.ts. */
  lintQuietMs?: number;
  /** Gated bytes the lint thread holds before the rest is read back from the file; default in secret-scan-worker.ts. */
  heldBytes?: number;
}
/** In the fallback: scanning waits until no batch has come for this long, then runs in steps of about this long. */
const QUIET_MS = 30;
const STEP_MS = 8;

interface Job {
  id: number;
  owner: number;
  epoch: number;
  batch: LineBatch;
  done: BatchDone;
}

export class ScanThread {
  private worker: Worker | null = null;
  private state: 'idle' | 'starting' | 'ready' | 'inline' = 'idle';
  /** Jobs handed over (or waiting for the thread to start, or for the fallback's steps). */
  private readonly jobs = new Map<number, Job>();
  private unsent: Job[] = [];
  private nextId = 1;
  private readonly pool: ArrayBuffer[] = [];
  private readonly poolBuffers: number;
  private readonly nice: number | null;
  private readonly lintQuietMs: number | undefined;
  private readonly heldBytes: number | undefined;
  /** Batch buffers made beyond the pool: the scan thread lagged and every pooled one was out. */
  freshBuffers = 0;
  /**
   * Buffers the scan thread made for the lines its gate passed, beyond those it made (and faulted
   * in) ahead when it started: as of the last batch it took.
   */
  gatedBuffersMade = 0;
  /** The scan thread's id (worker_threads), once it started; null before, or in the fallback. */
  threadId: number | null = null;
  /** The gate the scan thread runs, once it started (null before, or in the fallback). */
  gateKind: GateKind | null = null;
  /** Its lint thread's kernel id, once that lowered its priority (Linux); null otherwise. */
  osThreadId: number | null = null;
  private inlineRunning = false;
  private lastSubmitAt = 0;

  /** `entry`: the scan thread's file; default: `secret-scan-worker` found as thread-entry.ts finds entries. */
  constructor(
    private readonly entry?: string | URL,
    options: ScanThreadOptions = {},
  ) {
    this.poolBuffers = options.poolBuffers ?? POOL_BUFFERS;
    this.nice = options.nice === undefined ? SCAN_NICE : options.nice;
    this.lintQuietMs = options.lintQuietMs;
    this.heldBytes = options.heldBytes;
    // Written now (calloc'd memory is not touched until used), so a read's copies land in pages
    // already faulted in.
    for (let k = 0; k < this.poolBuffers; k++)
      this.pool.push(Buffer.allocUnsafeSlow(BATCH_BYTES).fill(0).buffer as ArrayBuffer);
  }

  /**
   * A buffer for a batch of at least `bytes` bytes: a pooled one when it is big enough. When the
   * scan thread lags and all of them are out, a fresh one: the read never waits for the scan and
   * the file is never read again, so the lines read meanwhile must be held somewhere; the scan
   * thread hands the buffers back as it takes their lines, keeping only those its gate passes, so
   * the memory held is the backlog it has not taken yet. Fresh ones are not kept after.
   */
  buffer(bytes: number): ArrayBuffer {
    const pooled = bytes <= BATCH_BYTES ? this.pool.pop() : undefined;
    if (pooled) return pooled;
    this.freshBuffers++;
    return Buffer.allocUnsafeSlow(Math.max(bytes, BATCH_BYTES)).buffer as ArrayBuffer;
  }

  /** Scans `batch` (its buffer is handed over: the caller no longer touches it) and tells `done`. */
  submit(owner: number, epoch: number, batch: LineBatch, done: BatchDone): void {
    const job: Job = { id: this.nextId++, owner, epoch, batch, done };
    this.jobs.set(job.id, job);
    this.lastSubmitAt = performance.now();
    if (this.state === 'idle') this.start();
    if (this.state === 'ready') this.send(job);
    else this.unsent.push(job);
    if (this.state === 'inline') this.runInline();
    this.worker?.ref();
  }

  /**
   * Starts the thread and its lint thread now, ahead of any session, and has them run once on a
   * made-up batch (scan-warm-up.ts): a new thread's start, its code's load and V8's optimizing of
   * it (on the process's helper threads, at the process's priority) then cost a first open
   * nothing. Does not keep the process alive.
   */
  prepare(): void {
    if (this.state !== 'idle') return;
    this.start(true);
    if (this.jobs.size === 0) this.worker?.unref();
  }

  /** `owner`'s reading started over at `epoch`: its older batches not scanned yet are not scanned. */
  drop(owner: number, epoch: number): void {
    const older = (j: Job): boolean => j.owner === owner && j.epoch < epoch;
    for (const j of this.unsent.filter(older)) this.finish(j.id, null);
    this.unsent = this.unsent.filter((j) => !older(j));
    if (this.state === 'ready') this.post({ type: 'drop', owner, epoch });
  }

  /**
   * Ends the thread (the backend closes): batches not answered yet are lost. A batch submitted
   * later starts a new thread.
   */
  async stop(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (this.state !== 'inline') this.state = 'idle';
    this.threadId = null;
    this.osThreadId = null;
    this.loseAll();
    await w?.terminate();
  }

  private start(warm = false): void {
    let file: URL;
    let source: string | undefined;
    try {
      ({ file, source } = resolveWorkerEntry(this.entry, undefined, SCAN_WORKER));
    } catch (e) {
      this.fallBack((e as Error).message);
      return;
    }
    this.state = 'starting';
    let w: Worker;
    try {
      const data: ScanThreadData = {
        entry: source,
        file: file.href,
        nice: this.nice,
        warm,
        lintQuietMs: this.lintQuietMs,
        heldBytes: this.heldBytes,
      };
      w = new Worker(file, { workerData: data });
    } catch (e) {
      this.fallBack((e as Error).message);
      return;
    }
    this.worker = w;
    let lastError: string | null = null;
    w.on('message', (m: FromScanThread) => {
      if (m.type === 'ready') {
        this.state = 'ready';
        this.threadId = m.threadId;
        this.gateKind = m.gate;
        const unsent = this.unsent;
        this.unsent = [];
        for (const j of unsent) this.send(j);
      } else if (m.type === 'taken') {
        this.gatedBuffersMade = m.gatedMade;
        this.recycle(m.buf);
      } else if (m.type === 'priority') this.osThreadId = m.tid;
      else this.finish(m.id, m.result ?? null);
    });
    w.on('error', (e: Error) => (lastError = e.message));
    w.on('exit', (code) => {
      if (w !== this.worker) return; // stopped on purpose
      this.worker = null;
      const reason = lastError ?? `its thread exited with code ${code}`;
      if (this.state === 'starting') {
        this.fallBack(reason);
        return;
      }
      // Its batches went with it: the next batch starts a new thread.
      console.warn(`vak-explorer: the secret scan thread stopped (${reason}); the lines it held are not scanned`);
      this.state = 'idle';
      this.threadId = null;
      this.osThreadId = null;
      this.loseAll();
    });
  }

  private fallBack(reason: string): void {
    console.warn(`vak-explorer: the secret scan thread could not start (${reason}); scanning on the reading thread`);
    this.state = 'inline';
    this.worker = null;
    this.runInline();
  }

  private send(j: Job): void {
    this.post({ type: 'scan', id: j.id, owner: j.owner, epoch: j.epoch, batch: j.batch }, [j.batch.buf]);
  }

  private post(m: ToScanThread, transfer: ArrayBuffer[] = []): void {
    this.worker?.postMessage(m, transfer);
  }

  private recycle(buf: ArrayBuffer): void {
    if (buf.byteLength === BATCH_BYTES && this.pool.length < this.poolBuffers) this.pool.push(buf);
  }

  private finish(id: number, result: BatchResult | null): void {
    const j = this.jobs.get(id);
    if (!j) return;
    this.jobs.delete(id);
    // In the fallback (or a batch never sent) the buffer is still here.
    if (j.batch.buf.byteLength > 0) this.recycle(j.batch.buf);
    if (this.jobs.size === 0) this.worker?.unref();
    j.done(result, false);
  }

  private loseAll(): void {
    const lost = [...this.jobs.values()];
    this.jobs.clear();
    this.unsent = [];
    for (const j of lost) j.done(null, true);
  }

  /** The fallback: the batches scanned on this thread, once reading pauses, in short steps. */
  private runInline(): void {
    if (this.inlineRunning) return;
    this.inlineRunning = true;
    let from = 0;
    const step = async (): Promise<void> => {
      const quiet = performance.now() - this.lastSubmitAt;
      if (quiet < QUIET_MS) {
        setTimeout(() => void step(), QUIET_MS - quiet);
        return;
      }
      const j = this.unsent[0];
      if (!j) {
        this.inlineRunning = false;
        return;
      }
      // One job's partial results add up across steps.
      const acc = (partial.get(j.id) ?? { findings: [], lines: 0, texts: 0 }) as BatchResult;
      if (j.batch.inFile) {
        const back = readLinesInFile(j.batch);
        acc.readBack = (acc.readBack ?? 0) + j.batch.ends.length;
        acc.changed = (acc.changed ?? 0) + back.changed;
        acc.lines += back.changed;
        j.batch = back.batch;
      }
      const started = performance.now();
      const r = await scanBatch(j.batch, from, () => performance.now() - started >= STEP_MS);
      acc.findings.push(...r.findings);
      acc.lines += r.lines;
      acc.texts += r.texts;
      partial.set(j.id, acc);
      if (r.next < j.batch.ends.length && this.unsent[0] === j) from = r.next;
      else {
        from = 0;
        partial.delete(j.id);
        if (this.unsent[0] === j) this.unsent.shift();
        this.finish(j.id, this.jobs.has(j.id) ? acc : null);
      }
      setImmediate(() => void step());
    };
    const partial = new Map<number, BatchResult>();
    setTimeout(() => void step(), QUIET_MS);
  }
}

let shared: ScanThread | null = null;

/** This thread's scan thread, shared by every scanner it creates. */
export function sharedScanThread(): ScanThread {
  shared ??= new ScanThread();
  return shared;
}

/** The id of this thread's scan thread, once it started (null before, or in the fallback). */
export function sharedScanThreadId(): number | null {
  return shared?.threadId ?? null;
}

/** Ends this thread's scan thread, if it started (the backend closes). */
export async function stopSharedScanThread(): Promise<void> {
  const s = shared;
  shared = null;
  await s?.stop();
}
