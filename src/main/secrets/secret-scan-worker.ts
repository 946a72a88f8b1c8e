/**
 * The secret scan thread's entry, which runs as two threads:
 *
 * - the scan thread (`vak-secrets`), at the priority of the thread that started it: as each batch
 *   of lines arrives from a reading thread (scan-thread.ts) it gates the lines, copies those that
 *   pass into its own memory and hands the buffer straight back. That keeps pace with a read, so
 *   the reading thread cycles through its pool of buffers and never touches fresh memory.
 * - its lint thread (`vak-secret-lint`), at the lowest priority (scan-priority.ts): the parse and
 *   the preset, most of the scan's CPU, over the lines that passed (a fraction of what was read).
 *   On a busy machine it takes no core from the read or the main thread, and catches up after.
 *
 * One pair serves every session of its backend; answers go back through the scan thread.
 */
import { writeFileSync } from 'node:fs';
import { parentPort, threadId, Worker, workerData, type MessagePort } from 'node:worker_threads';
import { lineHash, readBackLines, readLinesInFile } from './read-back';
import type { BatchResult, LineBatch } from './scan-batch';
import { lineGate } from './secret-gate-wasm';
import {
  GATED_BYTES,
  KEPT_GATED_BYTES,
  LINT_THREAD_NAME,
  LINT_THREAD_LIMITS,
  THREAD_NAME,
  type FromLintThread,
  type FromScanThread,
  type ReadBack,
  type ScanThreadData,
  type ToLintThread,
  type ToScanThread,
} from './scan-protocol';
import { setThisThreadNice } from './scan-priority';
import { GATE_WARM_UP_ROUNDS, gateWarmUpBatch, warmUpBatch } from './scan-warm-up';

type Scan = Extract<ToScanThread, { type: 'scan' }>;
type Gated = Extract<ToLintThread, { type: 'scan' }>;

/** The warm-up batch's id: no reading thread's (theirs count from 1), so its answer is not sent. */
const WARM_UP = -1;

/**
 * A batch of this many bytes or more was sent full: a read is in progress (appends and a read's
 * last lines come in smaller ones, sent once no line came for a moment).
 */
const BULK_BYTES = 256 << 10;
/**
 * The lint thread starts once no full batch has come for this long: while a session is read, the
 * parse and the preset wait. Even at the lowest priority they took a core's idle moments from
 * the read (its helper threads' work), and the V8 helper threads that optimize and collect for
 * them run at the process's priority. Appends are linted at once.
 */
const LINT_QUIET_MS = 150;
/** … or once the lines waiting for it (those the gate passed) reach this many bytes. */
const LINT_BACKLOG_BYTES = 64 << 20;

/**
 * Gated lines' bytes the lint thread may hold, queued or being scanned. Beyond it (a big session
 * read faster than the lint thread lints), the scan thread keeps only where the lines are in their
 * file and a hash of them, and the lint thread reads them back when it gets to them (read-back.ts):
 * the backlog then costs memory by the line, not by the byte.
 */
const HELD_BYTES = 8 << 20;

/** A step of scanning ends after this long, so that drops arriving meanwhile are seen promptly. */
const STEP_MS = 8;

function requirePort(): MessagePort {
  if (!parentPort) throw new Error('secret-scan-worker.ts runs only as a worker thread');
  return parentPort;
}
const port = requirePort();
const data = (workerData ?? { nice: null }) as ScanThreadData;

/** Named for `top -H` and the benches (thread-times.ts), which tell it from the backend thread (Linux). */
function nameThisThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name);
  } catch {
    // no such file here: the thread keeps its name
  }
}

if (data.role === 'lint') runLintThread();
else runScanThread();

function runScanThread(): void {
  nameThisThread(THREAD_NAME);
  const post = (m: FromScanThread): void => port.postMessage(m, m.type === 'taken' ? [m.buf] : []);
  const lint = new Worker(new URL(data.file), {
    workerData: { ...data, role: 'lint' } satisfies ScanThreadData,
    resourceLimits: LINT_THREAD_LIMITS,
  });
  const toLint = (m: ToLintThread): void => lint.postMessage(m, m.type === 'scan' ? [m.batch.buf] : []);
  const heldLimit = data.heldBytes ?? HELD_BYTES;
  /** Buffers for the gated lines: made ahead, then handed back by the lint thread once linted. */
  const linted: ArrayBuffer[] = [];
  const lintedPool = Math.max(1, Math.ceil(Math.min(heldLimit, KEPT_GATED_BYTES) / GATED_BYTES));
  for (let k = 0; k < lintedPool; k++) linted.push(Buffer.allocUnsafeSlow(GATED_BYTES).fill(0).buffer as ArrayBuffer);
  /** Gated-line buffers made since, beyond those (the warm-up's, a backlog past them, lines too long). */
  let gatedMade = 0;
  /** Gated bytes handed to the lint thread and not done yet, by batch id. */
  const atLint = new Map<number, number>();
  let heldBytes = 0;
  /**
   * Messages held back, in order, behind a batch whose lines are in the file (a deferred scan's,
   * read back after a first screen): such a batch is taken only while the lint thread holds less
   * than half of `heldLimit`, and its gated lines are then held whatever their size. Its lines
   * wait in the file at no cost: taking them faster than the lint thread lints would only let
   * their gated lines go again, to be read back a second time (`readBack`), and a big session's
   * deferral is most of its file.
   */
  const waiting: ToScanThread[] = [];
  const pump = (): void => {
    while (waiting.length > 0) {
      const m = waiting[0];
      if (m.type === 'scan' && m.batch.inFile && heldBytes * 2 >= heldLimit) return;
      waiting.shift();
      toLint(m.type === 'scan' ? take(m) : m);
    }
  };
  lint.on('message', (m: FromLintThread) => {
    if (m.type === 'priority') post({ type: 'priority', tid: m.tid });
    else if (m.type === 'linted') {
      if (linted.length < lintedPool) linted.push(m.buf);
    } else {
      heldBytes -= atLint.get(m.id) ?? 0;
      atLint.delete(m.id);
      post(m);
      pump();
    }
  });
  /** A buffer of at least `bytes`: a handed-back one when one is big enough (none for no lines). */
  const gatedBuffer = (bytes: number): Buffer => {
    const k = bytes === 0 ? -1 : linted.findIndex((b) => b.byteLength >= bytes);
    if (k >= 0) return Buffer.from(linted.splice(k, 1)[0]);
    if (bytes > 0) gatedMade++;
    return Buffer.allocUnsafeSlow(bytes === 0 ? 0 : Math.max(bytes, GATED_BYTES));
  };
  // Without it the lines it holds are never answered: this thread stops too, and the reading
  // thread counts them lost (scan-thread.ts).
  lint.on('error', (e: Error) => {
    throw e;
  });
  lint.on('exit', (code) => {
    if (code !== 0) process.exit(code);
  });

  /**
   * The lines of a batch that pass the gate, copied into this thread's memory; the buffer goes
   * back at once. Most of a session's bytes (long tool outputs) never pass it, so the backlog the
   * lint thread holds is a fraction of what was read.
   */
  const gate = (
    batch: LineBatch,
    id: number,
    mayLetGo = true,
  ): { kept: LineBatch; gatedOut: number; readBack?: ReadBack } => {
    const { buf, ends, lineNos, entries, offsets } = batch;
    const all = Buffer.from(buf);
    const kept: LineBatch = { buf, ends: [], lineNos: [], entries: [] };
    const passing: Buffer[] = [];
    const at: number[] = [];
    let used = 0;
    const pass = lineGate().gateLines(all, ends);
    for (let k = 0; k < ends.length; k++) {
      if (pass[k] === 0) continue;
      const line = all.subarray(k === 0 ? 0 : ends[k - 1], ends[k]);
      passing.push(line);
      at.push(k);
      used += line.length;
      kept.ends.push(used);
      kept.lineNos.push(lineNos[k]);
      kept.entries.push(entries[k]);
    }
    const gatedOut = ends.length - kept.ends.length;
    if (mayLetGo && batch.file && offsets && used > 0 && heldBytes + used > heldLimit) {
      // The lint thread is behind by more than it may hold: these lines are read back later.
      const readBack: ReadBack = {
        file: batch.file,
        offsets: at.map((k) => offsets[k]),
        hashes: passing.map(lineHash),
      };
      return { kept: { ...kept, buf: new ArrayBuffer(0) }, gatedOut, readBack };
    }
    const own = gatedBuffer(used);
    let to = 0;
    for (const line of passing) to += line.copy(own, to);
    if (id !== WARM_UP) {
      atLint.set(id, used);
      heldBytes += used;
    }
    return { kept: { ...kept, buf: own.buffer as ArrayBuffer }, gatedOut };
  };
  /** Where a batch whose lines were left in the file is read into: reused, so no fresh pages per batch. */
  let fileBuffer: Buffer | null = null;
  const take = (m: Scan): Gated => {
    let lines = m.batch;
    let inFile: { read: number; changed: number } | undefined;
    if (lines.inFile) {
      const bytes = lines.ends.length > 0 ? lines.ends[lines.ends.length - 1] : 0;
      if (!fileBuffer || fileBuffer.length < bytes) fileBuffer = Buffer.allocUnsafeSlow(Math.max(bytes, 1 << 20));
      const back = readLinesInFile(lines, fileBuffer);
      inFile = { read: lines.ends.length, changed: back.changed };
      lines = back.batch;
    }
    // Lines just read back from the file are taken at the lint thread's pace (`pump`): held, not let go again.
    const { kept, gatedOut, readBack } = gate(lines, m.id, !inFile);
    const read = m.batch.ends.length > 0 ? m.batch.ends[m.batch.ends.length - 1] : 0;
    post({ type: 'taken', id: m.id, buf: m.batch.buf, gatedMade });
    return {
      ...m,
      batch: kept,
      gatedOut,
      // Lines read back from the file are no read in progress: the lint takes them at once.
      bulk: read >= BULK_BYTES && !inFile,
      ...(readBack ? { readBack } : {}),
      ...(inFile ? { inFile } : {}),
    };
  };

  port.on('message', (m: ToScanThread) => {
    if (m.type === 'drop') {
      // The owner's older batches still held back here are not taken at all.
      for (let k = waiting.length - 1; k >= 0; k--) {
        const w = waiting[k];
        if (w.type !== 'scan' || w.owner !== m.owner || w.epoch >= m.epoch) continue;
        waiting.splice(k, 1);
        post({ type: 'taken', id: w.id, buf: w.batch.buf, gatedMade });
        post({ type: 'done', id: w.id });
      }
    }
    waiting.push(m);
    pump();
  });
  post({ type: 'ready', threadId, gate: lineGate().kind });
  if (data.warm) {
    // Started ahead of any session: the gate, then the parse and the preset, run once on a
    // made-up batch (scan-warm-up.ts) now rather than during a first open.
    const { kept, gatedOut } = gate(warmUpBatch(), WARM_UP);
    toLint({ type: 'scan', id: WARM_UP, owner: 0, epoch: 0, batch: kept, gatedOut, bulk: false });
    // The gate over whole lines that do not pass, as most of a read's: its code optimized now.
    const prose = gateWarmUpBatch();
    for (let k = 0; k < GATE_WARM_UP_ROUNDS; k++) gate(prose, WARM_UP);
  }
}

function runLintThread(): void {
  nameThisThread(LINT_THREAD_NAME);
  const lintPort = port;
  const post = (m: FromLintThread): void => lintPort.postMessage(m, m.type === 'linted' ? [m.buf] : []);
  /** The lines' bytes (a handed-back buffer may be longer than them). */
  const gatedBytes = (s: Gated): number => (s.batch.ends.length > 0 ? s.batch.ends[s.batch.ends.length - 1] : 0);
  /** The batch a step of `run` is scanning: a drop meanwhile must not take its buffer away. */
  let scanning: Gated | null = null;
  const handBack = (s: Gated): void => {
    if (s !== scanning && s.batch.buf.byteLength > 0) post({ type: 'linted', buf: s.batch.buf });
  };
  post({ type: 'priority', tid: data.nice === null ? null : setThisThreadNice(data.nice) });
  const queue: Gated[] = [];
  let running = false;
  /** The rules load at once, while the scan thread already takes batches. */
  const rules = import('./scan-batch');

  /** Scans the queue in steps; between steps, new batches are queued and drops seen. */
  const run = async (): Promise<void> => {
    running = true;
    const { scanBatch } = await rules;
    let from = 0;
    let partial: BatchResult = { findings: [], lines: 0, texts: 0 };
    while (queue.length > 0) {
      const s = queue[0];
      if (s.readBack) {
        // Its lines were let go for the backlog: read back now, those that changed left out.
        const where = s.readBack;
        const back = readBackLines(s.batch, where);
        waitingBytes -= gatedBytes(s) - gatedBytes({ ...s, batch: back.batch });
        s.batch = back.batch;
        s.readBack = undefined;
        partial.readBack = (partial.readBack ?? 0) + where.offsets.length;
        partial.changed = (partial.changed ?? 0) + back.changed;
        partial.lines += back.changed;
      }
      const started = performance.now();
      scanning = s;
      const r = await scanBatch(s.batch, from, () => performance.now() - started >= STEP_MS);
      scanning = null;
      partial.findings.push(...r.findings);
      partial.lines += r.lines;
      partial.texts += r.texts;
      if (queue[0] !== s) {
        // Dropped while it was scanned (a drop, or the warm-up giving way): its result goes with it.
        from = 0;
        partial = { findings: [], lines: 0, texts: 0 };
        continue;
      }
      if (r.next < s.batch.ends.length) from = r.next;
      else {
        queue.shift();
        waitingBytes -= gatedBytes(s);
        partial.lines += s.gatedOut;
        if (s.inFile) {
          // Lines that had changed in the file count as scanned, as a backlog's read back do.
          partial.lines += s.inFile.changed;
          partial.changed = (partial.changed ?? 0) + s.inFile.changed;
          partial.readBack = (partial.readBack ?? 0) + s.inFile.read;
        }
        if (s.id !== WARM_UP) post({ type: 'done', id: s.id, result: partial });
        handBack(s);
        from = 0;
        partial = { findings: [], lines: 0, texts: 0 };
      }
      await new Promise((resolve) => setImmediate(resolve));
      // A drop took the batch being scanned: its partial result goes with it.
      if (queue[0] !== s && from > 0) {
        from = 0;
        partial = { findings: [], lines: 0, texts: 0 };
      }
      // A read started meanwhile (another session opened): the rest waits for it, as above.
      if (from === 0 && deferred()) break;
    }
    running = false;
    if (queue.length > 0) schedule();
  };

  /** The lines waiting, deferred while a read is in progress (LINT_QUIET_MS). */
  let waitingBytes = 0;
  let lastBulkAt = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const deferred = (): boolean => performance.now() - lastBulkAt < LINT_QUIET_MS && waitingBytes < LINT_BACKLOG_BYTES;
  const schedule = (): void => {
    if (running || timer) return;
    if (!deferred()) {
      void run();
      return;
    }
    timer = setTimeout(
      () => {
        timer = null;
        schedule();
      },
      LINT_QUIET_MS - (performance.now() - lastBulkAt),
    );
  };
  const dropWarmUp = (): void => {
    const k = queue.findIndex((q) => q.id === WARM_UP);
    if (k < 0) return;
    waitingBytes -= gatedBytes(queue[k]);
    handBack(queue.splice(k, 1)[0]);
  };
  lintPort.on('message', (m: ToLintThread) => {
    if (m.type === 'scan') {
      // A session's lines do not wait behind the warm-up: it only saves a first open some work.
      if (m.id !== WARM_UP) dropWarmUp();
      queue.push(m);
      waitingBytes += gatedBytes(m);
      if (m.bulk) lastBulkAt = performance.now();
      schedule();
    } else {
      for (let k = queue.length - 1; k >= 0; k--) {
        const s = queue[k];
        if (s.owner !== m.owner || s.epoch >= m.epoch) continue;
        queue.splice(k, 1);
        waitingBytes -= gatedBytes(s);
        post({ type: 'done', id: s.id });
        handBack(s);
      }
    }
  });
}
