/**
 * The secret scan thread's entry: scans the batches of lines the reading threads hand it
 * (scan-thread.ts), one after another, and answers each with its findings. One thread serves
 * every session of its backend, below the backend's priority: the scan is background work, and a
 * first open's panes come first.
 */
import { parentPort, threadId, type MessagePort } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../worker/thread-priority';
import { scanBatch } from './scan-batch';
import type { FromScanThread, ToScanThread } from './scan-protocol';

type Scan = Extract<ToScanThread, { type: 'scan' }>;

function requirePort(): MessagePort {
  if (!parentPort) throw new Error('secret-scan-worker.ts runs only as a worker thread');
  return parentPort;
}
const port = requirePort();
const queue: Scan[] = [];
let running = false;

/** A `done` hands its buffer back (transferred) for the reading thread's next batch. */
function post(m: FromScanThread): void {
  port.postMessage(m, m.type === 'done' ? [m.buf] : []);
}

async function run(): Promise<void> {
  running = true;
  while (queue.length > 0) {
    const s = queue.shift()!;
    const { next: _next, ...result } = await scanBatch(s.batch);
    post({ type: 'done', id: s.id, buf: s.batch.buf, result });
    // Lets a `drop` in before the next batch.
    await new Promise((resolve) => setImmediate(resolve));
  }
  running = false;
}

port.on('message', (m: ToScanThread) => {
  if (m.type === 'scan') {
    queue.push(m);
    if (!running) void run();
  } else {
    for (let k = queue.length - 1; k >= 0; k--) {
      const s = queue[k];
      if (s.owner !== m.owner || s.epoch >= m.epoch) continue;
      queue.splice(k, 1);
      post({ type: 'done', id: s.id, buf: s.batch.buf });
    }
  }
});
lowerThisThreadPriority();
post({ type: 'ready', threadId });
