/**
 * The secret scan thread's entry: scans the batches of lines the reading threads hand it
 * (scan-thread.ts), one after another, and answers each with its findings. One thread serves
 * every session of its backend. It lowers its own priority to the lowest (scan-priority.ts), so
 * on a busy machine it takes no core from the read or the main thread; the batches it has not taken
 * yet wait in the reading thread's pool of buffers (scan-thread.ts).
 */
import { writeFileSync } from 'node:fs';
import { parentPort, threadId, workerData, type MessagePort } from 'node:worker_threads';
import type { BatchResult, LineBatch } from './scan-batch';
import { mayHoldSecretBytes } from './secret-gate';
import { THREAD_NAME, type FromScanThread, type ScanThreadData, type ToScanThread } from './scan-protocol';
import { setThisThreadNice } from './scan-priority';

type Scan = Extract<ToScanThread, { type: 'scan' }>;
/** A batch waiting here: its lines that passed the gate, and how many did not. */
type Queued = Scan & { gatedOut: number };

function requirePort(): MessagePort {
  if (!parentPort) throw new Error('secret-scan-worker.ts runs only as a worker thread');
  return parentPort;
}
const port = requirePort();
const queue: Queued[] = [];
let running = false;
/** A step of scanning ends after this long, so that batches arriving meanwhile are taken promptly. */
const STEP_MS = 8;

/** A `taken` hands its buffer back (transferred). */
function post(m: FromScanThread): void {
  port.postMessage(m, m.type === 'taken' ? [m.buf] : []);
}

/** Scans the queue in steps; between steps, new batches are taken and drops seen. */
async function run(): Promise<void> {
  running = true;
  const { scanBatch } = await rules;
  let from = 0;
  let partial: BatchResult = { findings: [], lines: 0, texts: 0 };
  while (queue.length > 0) {
    const s = queue[0];
    const started = performance.now();
    const r = await scanBatch(s.batch, from, () => performance.now() - started >= STEP_MS);
    partial.findings.push(...r.findings);
    partial.lines += r.lines;
    partial.texts += r.texts;
    if (r.next < s.batch.ends.length) from = r.next;
    else {
      queue.shift();
      partial.lines += s.gatedOut;
      post({ type: 'done', id: s.id, result: partial });
      from = 0;
      partial = { findings: [], lines: 0, texts: 0 };
    }
    await new Promise((resolve) => setImmediate(resolve));
    // A drop took the batch being scanned: its partial result goes with it.
    if (queue[0] !== s && from > 0) {
      from = 0;
      partial = { findings: [], lines: 0, texts: 0 };
    }
  }
  running = false;
}

/**
 * The lines of a batch that pass the gate, copied into this thread's memory; the buffer goes back
 * at once. Gating as batches arrive keeps up with a read, and most of a session's bytes (long tool
 * outputs) never pass it, so the backlog this thread holds is a fraction of what was read.
 */
function take(m: Scan): Queued {
  const { buf, ends, lineNos, entryIds } = m.batch;
  const all = Buffer.from(buf);
  const kept: LineBatch = { buf, ends: [], lineNos: [], entryIds: [] };
  const passing: Buffer[] = [];
  let used = 0;
  for (let k = 0; k < ends.length; k++) {
    const line = all.subarray(k === 0 ? 0 : ends[k - 1], ends[k]);
    if (!mayHoldSecretBytes(line)) continue;
    passing.push(line);
    used += line.length;
    kept.ends.push(used);
    kept.lineNos.push(lineNos[k]);
    kept.entryIds.push(entryIds[k]);
  }
  const own = Buffer.allocUnsafeSlow(used);
  let at = 0;
  for (const line of passing) at += line.copy(own, at);
  post({ type: 'taken', id: m.id, buf });
  return { ...m, batch: { ...kept, buf: own.buffer as ArrayBuffer }, gatedOut: ends.length - kept.ends.length };
}

port.on('message', (m: ToScanThread) => {
  if (m.type === 'scan') {
    queue.push(take(m));
    if (!running) void run();
  } else {
    for (let k = queue.length - 1; k >= 0; k--) {
      const s = queue[k];
      if (s.owner !== m.owner || s.epoch >= m.epoch) continue;
      queue.splice(k, 1);
      post({ type: 'done', id: s.id });
    }
  }
});
// Named for `top -H` and the benches (thread-times.ts), which tell it from the backend thread (Linux).
try {
  writeFileSync('/proc/thread-self/comm', THREAD_NAME);
} catch {
  // no such file here: the thread keeps its name
}
const { nice } = (workerData ?? { nice: null }) as ScanThreadData;
post({ type: 'ready', threadId, tid: nice === null ? null : setThisThreadNice(nice) });
/**
 * The rules load after `ready`: batches are taken (copied out, their buffers handed back) from the
 * start, while the preset is still loading, so a first read does not wait for it.
 */
const rules = import('./scan-batch');
