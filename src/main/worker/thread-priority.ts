/**
 * The backend worker runs below the main thread's scheduling priority (Linux), so the thread
 * that routes IPC, sockets and Electron's windows gets a core the moment it wakes.
 *
 * Why: on a 2-core machine the main thread's event-loop delay (max ≤ 20 ms) was not
 * its own work but time spent runnable and waiting for a core (/proc/thread-self/schedstat:
 * stalls of 10–15 ms were 9–13 ms of run-queue wait) while the worker and V8's helper threads
 * projected a leaf. A higher nice value on the worker's thread only lets the main thread in
 * first; the worker still has every idle core.
 *
 * Linux only: setpriority(2) with a thread id applies to that thread (Node's os.setPriority
 * passes it through); /proc/thread-self names the calling thread. Elsewhere it does nothing.
 */
import { getPriority, setPriority } from 'node:os';
import { currentThreadId } from '../threads/thread-id';

export { currentThreadId };

/** How much nicer than its process the worker thread runs (0 … 19; +5 is about a third of the weight). */
export const WORKER_NICE_INCREMENT = 5;

/**
 * Raises the calling thread's nice value by `increment` (capped at 19; raising it needs no
 * privilege). Returns the thread's new nice value, or null when the platform has no per-thread
 * priority or the kernel refused: the worker then runs as before.
 */
export function lowerThisThreadPriority(increment = WORKER_NICE_INCREMENT): number | null {
  const tid = currentThreadId();
  if (tid === null) return null;
  try {
    const nice = Math.min(19, getPriority(tid) + increment);
    setPriority(tid, nice);
    return getPriority(tid);
  } catch {
    return null;
  }
}
