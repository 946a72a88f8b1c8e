/**
 * Per-thread CPU time and run-queue wait of a process (Linux /proc/PID/task/TID/schedstat), to
 * tell our own work from a busy machine. On 2 shared cores one first open of the 100 MB session
 * moves by ±30 % in wall time from one run to the next, while the backend thread's own CPU time
 * moves by about ±10 %; the rest is the thread waiting for a core (other processes, and V8's
 * helper threads: concurrent compilation and GC, ~0.5 s of CPU during that open).
 *
 * In a virtual machine a thread can also be ready and "on a CPU" while the host runs something
 * else on that CPU: the guest counts that as steal (/proc/stat), in neither the thread's run time
 * nor its wait. The figures carry it for the machine (both cores) so that a slow run can be told
 * from a slow explorer: on this VM a first open's wall time follows the steal in its window.
 */
import { readFileSync, readdirSync } from 'node:fs';

/** Per thread id: nanoseconds on a CPU and waiting on the run queue; and the machine's steal so far. */
export interface ThreadSample {
  threads: Map<number, { runNs: number; waitNs: number; name?: string }>;
  /** All CPUs' steal since boot (ms), or null where /proc/stat has no steal column. */
  stealMs: number | null;
}

/** The secret scan thread's name (src/main/secrets/scan-protocol.ts THREAD_NAME). */
const SECRETS_THREAD = 'vak-secrets';
/** Its lint thread's (LINT_THREAD_NAME), at the lowest priority. */
const SECRETS_LINT_THREAD = 'vak-secret-lint';
const isSecrets = (name: string | undefined): boolean => name === SECRETS_THREAD || name === SECRETS_LINT_THREAD;

/** /proc/stat counts in USER_HZ, 100 a second on every Linux architecture Node runs on. */
const MS_PER_TICK = 10;

/** The machine's steal so far (ms, all CPUs: /proc/stat's first line, 8th number), or null. */
export function readSteal(): number | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/);
    const ticks = Number(fields[8]);
    return fields[0] === 'cpu' && Number.isFinite(ticks) ? ticks * MS_PER_TICK : null;
  } catch {
    return null;
  }
}

/** One thread's schedstat file (`/proc/…/schedstat`): ns on a CPU and waiting on the run queue; throws where there is none. */
export function readSchedstat(path: string): { runNs: number; waitNs: number } {
  const [runNs, waitNs] = readFileSync(path, 'utf8').split(' ').map(Number);
  return { runNs, waitNs };
}

/** The threads of `pid` now, or null where /proc has no schedstat (another OS, a kernel without it). */
export function sampleThreads(pid: number | undefined): ThreadSample | null {
  if (pid === undefined) return null;
  try {
    const threads: ThreadSample['threads'] = new Map();
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        threads.set(Number(tid), { ...readSchedstat(`/proc/${pid}/task/${tid}/schedstat`), name });
      } catch {
        // the thread ended meanwhile
      }
    }
    return { threads, stealMs: readSteal() };
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
  /** The secret scan's thread (named SECRETS_THREAD), not counted as the backend's nor a helper. */
  secretsCpuMs: number;
  /** Its lint thread (SECRETS_LINT_THREAD). */
  secretsLintCpuMs: number;
  /** Time the host took from this machine's CPUs meanwhile (steal, all CPUs, 10 ms ticks), or null. */
  hostStealMs: number | null;
}

export function threadFigures(
  pid: number | undefined,
  before: ThreadSample | null,
  after: ThreadSample | null,
): ThreadFigures | null {
  if (pid === undefined || before === null || after === null) return null;
  const ms = (ns: number): number => Math.round(ns / 1e6);
  const deltas = [...after.threads].map(([tid, a]) => {
    const b = before.threads.get(tid) ?? { runNs: 0, waitNs: 0 };
    return { tid, run: a.runNs - b.runNs, wait: a.waitNs - b.waitNs, name: a.name };
  });
  const main = deltas.find((d) => d.tid === pid);
  const secrets = deltas.filter((d) => d.name === SECRETS_THREAD);
  const lint = deltas.filter((d) => d.name === SECRETS_LINT_THREAD);
  const others = deltas.filter((d) => d.tid !== pid && !isSecrets(d.name)).sort((x, y) => y.run - x.run);
  if (!main || others.length === 0) return null;
  const [backend, ...helpers] = others;
  return {
    backendCpuMs: ms(backend.run),
    backendWaitMs: ms(backend.wait),
    helpersCpuMs: ms(helpers.reduce((n, h) => n + h.run, 0)),
    mainCpuMs: ms(main.run),
    secretsCpuMs: ms(secrets.reduce((n, h) => n + h.run, 0)),
    secretsLintCpuMs: ms(lint.reduce((n, h) => n + h.run, 0)),
    hostStealMs: after.stealMs === null || before.stealMs === null ? null : after.stealMs - before.stealMs,
  };
}

/**
 * "the backend thread ran 950 ms and waited 150 ms for a core; helper threads 550 ms, main 40 ms;
 * the host took 120 ms of this machine's CPUs (steal)".
 */
export function describeThreads(t: ThreadFigures | null): string {
  if (t === null) return 'per-thread times: not available here';
  const steal = t.hostStealMs === null ? '' : `; the host took ${t.hostStealMs} ms of this machine's CPUs (steal)`;
  return (
    `the backend thread ran ${t.backendCpuMs} ms and waited ${t.backendWaitMs} ms for a core; ` +
    `helper threads ${t.helpersCpuMs} ms, main thread ${t.mainCpuMs} ms, secret scan thread ${t.secretsCpuMs} ms, its lint thread ${t.secretsLintCpuMs} ms${steal}`
  );
}
