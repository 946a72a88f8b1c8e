/**
 * The secret scan thread runs at the lowest OS priority (Linux). On a 2-core machine the reading
 * thread, the main thread and the scan thread share two cores: at nice 19 the scan takes only
 * what they leave, so a first open is not slowed by it, and it catches up once the read is done.
 * The kernel still gives such a thread a share of a busy core, so answers that wait for the scan
 * (exports, `secrets`) complete. setpriority(2) on the thread's own id renices that thread alone;
 * elsewhere the thread keeps its priority.
 */
import { setPriority } from 'node:os';
import { currentThreadId } from '../threads/thread-id';

export const SCAN_NICE = 19;

/** Sets this thread's nice value; its kernel id when done, null when it could not. */
export function setThisThreadNice(nice: number): number | null {
  const tid = currentThreadId();
  if (tid === null) return null;
  try {
    setPriority(tid, nice);
    return tid;
  } catch {
    return null;
  }
}
