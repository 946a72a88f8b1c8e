/**
 * Per-thread CPU time and run-queue wait of a process (Linux /proc/PID/task/TID/schedstat), to
 * tell our own work from a busy machine. On 2 shared cores one first open of the 100 MB session
 * moves by ±30 % in wall time from one run to the next, while the backend thread's own CPU time
 * moves by about ±10 %; the rest is the thread waiting for a core (other processes, and V8's
 * helper threads: concurrent compilation and GC, ~0.5 s of CPU during that open).
 */
import { readFileSync, readdirSync } from 'node:fs';

/** Per thread id: nanoseconds on a CPU and waiting on the run queue. */
export type ThreadSample = Map<number, { runNs: number; waitNs: number }>;

/** One thread's schedstat file (`/proc/…/schedstat`): ns on a CPU and waiting on the run queue; throws where there is none. */
export function readSchedstat(path: string): { runNs: number; waitNs: number } {
  const [runNs, waitNs] = readFileSync(path, 'utf8').split(' ').map(Number);
  return { runNs, waitNs };
}

/** The threads of `pid` now, or null where /proc has no schedstat (another OS, a kernel without it). */
export function sampleThreads(pid: number | undefined): ThreadSample | null {
  if (pid === undefined) return null;
  try {
    const out: ThreadSample = new Map();
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        out.set(Number(tid), readSchedstat(`/proc/${pid}/task/${tid}/schedstat`));
      } catch {
        // the thread ended meanwhile
      }
    }
    return out;
  } catch {
    return null;
  }
}

/** What the threads of a serving process did between two samples (ms). */
export interface ThreadFigures {
  /** The busiest thread but the main one: the backend worker, which reads and projects. */
  backendCpuMs: number;
  /** Time the backend thread was runnable and waited for a core. */
  backendWaitMs: number;
  /** Every other thread but the main one (V8's platform threads, libuv's pool). */
  helpersCpuMs: number;
  /** The main thread (routing, sockets). */
  mainCpuMs: number;
}

export function threadFigures(
  pid: number | undefined,
  before: ThreadSample | null,
  after: ThreadSample | null,
): ThreadFigures | null {
  if (pid === undefined || before === null || after === null) return null;
  const ms = (ns: number): number => Math.round(ns / 1e6);
  const deltas = [...after].map(([tid, a]) => {
    const b = before.get(tid) ?? { runNs: 0, waitNs: 0 };
    return { tid, run: a.runNs - b.runNs, wait: a.waitNs - b.waitNs };
  });
  const main = deltas.find((d) => d.tid === pid);
  const others = deltas.filter((d) => d.tid !== pid).sort((x, y) => y.run - x.run);
  if (!main || others.length === 0) return null;
  const [backend, ...helpers] = others;
  return {
    backendCpuMs: ms(backend.run),
    backendWaitMs: ms(backend.wait),
    helpersCpuMs: ms(helpers.reduce((n, h) => n + h.run, 0)),
    mainCpuMs: ms(main.run),
  };
}

/** "the backend thread ran 950 ms and waited 150 ms for a core; helper threads 550 ms, main 40 ms". */
export function describeThreads(t: ThreadFigures | null): string {
  if (t === null) return 'per-thread times: not available here';
  return (
    `the backend thread ran ${t.backendCpuMs} ms and waited ${t.backendWaitMs} ms for a core; ` +
    `helper threads ${t.helpersCpuMs} ms, main thread ${t.mainCpuMs} ms`
  );
}
