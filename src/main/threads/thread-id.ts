/**
 * The calling thread's kernel id (Linux), for setpriority(2) on that thread alone (Node's
 * os.setPriority passes it through): /proc/thread-self names the calling thread. Null elsewhere.
 */
import { readlinkSync } from 'node:fs';

export function currentThreadId(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}
