/**
 * The secret scan thread's entry: scans the batches of lines the reading threads hand it
 * (scan-thread.ts), one after another, and answers each with its findings. One thread serves
 * every session of its backend, below the backend's priority: the scan is background work, and a
 * first open's panes come first.
 */
import { writeFileSync } from 'node:fs';
import { parentPort, threadId, type MessagePort } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../worker/thread-priority';
import type { BatchResult } from './scan-batch';
import { THREAD_NAME, type FromScanThread, type ToScanThread } from './scan-protocol';

type Scan = Extract<ToScanThread, { type: 'scan' }>;

function requirePort(): MessagePort {
  if (!parentPort) throw new Error('secret-scan-worker.ts runs only as a worker thread');
  return parentPort;
}
const port = requirePort();
const queue: Scan[] = [];
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

/** The batch's lines copied into this thread's memory; its buffer goes back at once. */
function take(m: Scan): Scan {
  const used = m.batch.ends.length > 0 ? m.batch.ends[m.batch.ends.length - 1] : 0;
  const own = Buffer.allocUnsafeSlow(used);
  Buffer.from(m.batch.buf, 0, used).copy(own);
  post({ type: 'taken', id: m.id, buf: m.batch.buf });
  return { ...m, batch: { ...m.batch, buf: own.buffer as ArrayBuffer } };
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
lowerThisThreadPriority();
// Named for `top -H` and the benches (thread-times.ts), which tell it from the backend thread (Linux).
try {
  writeFileSync('/proc/thread-self/comm', THREAD_NAME);
} catch {
  // no such file here: the thread keeps its name
}
post({ type: 'ready', threadId });
/**
 * The rules load after `ready`: batches are taken (copied out, their buffers handed back) from the
 * start, while the preset is still loading, so a first read does not wait for it.
 */
const rules = import('./scan-batch');
