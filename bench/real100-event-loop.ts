/**
 * The serving process's main thread while a 100 MB session opens and leaves are selected:
 * event-loop delay (`perf_hooks.monitorEventLoopDelay`, 1 ms resolution) with the backend
 * on the main thread (before) and on a worker thread (after), in one run. Each answer
 * reaches the main thread as the WebSocket transport takes it: the worker's as the JSON text
 * the worker wrote (sent as it is), the in-process backend's serialised here, so what the
 * transport costs the main thread is in the figure too.
 *
 * The worker placement is measured first, in a process whose main thread has done nothing but
 * load: measured after the main-thread placement it met that run's garbage (hundreds of MB of a
 * backend's heap) being collected, which a serving process never has. On Linux the longest stall
 * is split into the time the main thread ran and the time it waited, runnable, for a core
 * (/proc/thread-self/schedstat): on 2 shared cores a stall can be the scheduler, not our code;
 * and in a virtual machine, the host: the machine's steal during it is given too (/proc/stat,
 * both cores, 10 ms ticks).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { answersJson, type ApiBackend, type ApiClient } from '../src/main/api/api-backend';
import { ExplorerBackend, type ExplorerBackendOptions } from '../src/main/api/explorer-backend';
import { ROOT } from '../src/test-support/serve-process';
import type { Real100 } from './real100-data';
import { selectionScript, type Call, type SelectionFigures } from './real100-selection';
import { readSchedstat, readSteal } from './thread-times';

export interface EventLoopFigures {
  label: string;
  selection: SelectionFigures;
  maxMs: number;
  p99Ms: number;
  /** The longest JSON.stringify of one answer on the main thread (the transport's share). */
  longestSerializeMs: number;
  /** The longest gap between two 2 ms ticks of the main thread, and how much of it it ran / waited for a core (Linux). */
  longestStall: Stall | null;
}

export interface Stall {
  ms: number;
  ranMs: number;
  waitedMs: number;
  /** The machine's steal meanwhile (both cores; 10 ms ticks), or null where /proc/stat has none. */
  hostStealMs: number | null;
}

/** The calling thread's CPU time and run-queue wait so far, in ms (Linux), or null. */
function schedstat(): [number, number] | null {
  try {
    const { runNs, waitNs } = readSchedstat('/proc/thread-self/schedstat');
    return [runNs / 1e6, waitNs / 1e6];
  } catch {
    return null;
  }
}

/** Watches the main thread's ticks until stopped: the longest gap, split by schedstat. */
function stallWatch(): () => Stall | null {
  if (schedstat() === null) return () => null;
  let last = performance.now();
  let lastSched = schedstat() as [number, number];
  let lastSteal = readSteal();
  let longest: Stall | null = null;
  const timer = setInterval(() => {
    const now = performance.now();
    const sched = schedstat() as [number, number];
    const steal = readSteal();
    if (longest === null || now - last > longest.ms) {
      const hostStealMs = steal === null || lastSteal === null ? null : steal - lastSteal;
      longest = { ms: now - last, ranMs: sched[0] - lastSched[0], waitedMs: sched[1] - lastSched[1], hostStealMs };
    }
    last = now;
    lastSched = sched;
    lastSteal = steal;
  }, 2);
  return () => {
    clearInterval(timer);
    return longest;
  };
}

const WORKER_BACKEND = join(ROOT, 'src', 'main', 'worker', 'worker-backend.ts');

type BackendFactory = (opts: ExplorerBackendOptions) => Promise<ApiBackend>;

async function measure(label: string, backend: ApiBackend, key: string): Promise<EventLoopFigures> {
  const client: ApiClient = { id: 'bench-eld', push: () => {} };
  let longestSerializeMs = 0;
  const call: Call = async (method, req, signal) => {
    // As the socket does: a worker's answer comes as its JSON text, sent as it is; the script's
    // own reading of it (a client's, in its browser) is parsed only when it reads it.
    if (answersJson(backend)) {
      const text = (await backend.callJson(method, req, client, signal)) ?? 'null';
      await new Promise((r) => setImmediate(r));
      return {
        get res() {
          return JSON.parse(text) as never;
        },
        bytes: Buffer.byteLength(text),
      };
    }
    const res = await backend.call(method, req, client, signal);
    const t0 = performance.now();
    const text = JSON.stringify(res);
    longestSerializeMs = Math.max(longestSerializeMs, performance.now() - t0);
    // A transport's next request arrives as a new task (a socket read): yield one, so the
    // histogram measures per request, not the whole script as one run of microtasks.
    await new Promise((r) => setImmediate(r));
    return { res: res as never, bytes: Buffer.byteLength(text) };
  };
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const stopWatch = stallWatch();
  try {
    const selection = await selectionScript(call, key);
    // Answers resolve through microtasks: a run of synchronous work ends only when the loop
    // turns again, and the histogram records it on its next tick — give it that tick.
    await new Promise((r) => setTimeout(r, 20));
    h.disable();
    const longestStall = stopWatch();
    return { label, selection, maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6, longestSerializeMs, longestStall };
  } finally {
    h.disable();
    stopWatch();
    await backend.close();
  }
}

/**
 * Both placements of the backend (the worker one only once it exists), the worker first (see
 * above); returned as before (main thread), after (worker).
 */
export async function eventLoopFigures(data: Real100, log: (s: string) => void): Promise<EventLoopFigures[]> {
  const opts: ExplorerBackendOptions = { home: data.home, isDemo: false, label: 'bench', watch: false, lockPollMs: 0 };
  const placements: [string, BackendFactory][] = [];
  if (existsSync(WORKER_BACKEND)) {
    const mod = (await import(WORKER_BACKEND)) as { WorkerBackend: { create: BackendFactory } };
    placements.push(['worker thread (after)', (o) => mod.WorkerBackend.create(o)]);
  } else log('  (no worker backend yet: only the main-thread placement is measured)');
  placements.push(['main thread (before)', (o) => ExplorerBackend.create(o)]);
  const out: EventLoopFigures[] = [];
  for (const [label, create] of placements) {
    log(`  in-process, backend on the ${label} …`);
    out.unshift(await measure(label, await create(opts), data.key));
  }
  return out;
}
