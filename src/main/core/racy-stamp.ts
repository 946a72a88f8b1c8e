/**
 * When a file's stamp (size, mtime, ctime) proves that nothing was written since a read began.
 *
 * File times are set from a coarse clock: a write in the same tick as the last one leaves the
 * stamp as it was. So a stamp taken within a tick of the file's newest time (mtime or ctime) is
 * _racy_: a same-size rewrite in place right after it would go unseen (as git treats a "racily
 * clean" index entry). How long a tick is depends on the file system's granularity:
 *
 * - sub-second stamps (the kernel's clock: Linux stamps at its coarse clock, one jiffy, at most
 *   10 ms; Windows at its 15.6 ms timer; macOS to the nanosecond): FINE_RACY_MS covers the
 *   tick and the millisecond the stamp and Date.now() are rounded to;
 * - whole seconds (ext3, HFS+, some NFS servers; FAT keeps 2 s): RACY_MS.
 *
 * ctime tells the granularity best: only the kernel sets it (utimes can give mtime whole
 * seconds on any file system).
 */
import type { ByteSource, FileStamp } from './byte-source';

const RACY_MS = 2000;
/**
 * Linux's tick is at most 10 ms, Windows' timer 15.6 ms, and the stamp and Date.now() are each
 * rounded to a millisecond. Kept small: an append's read waits out what is left of it (see
 * stampSettled), and appends are shown as they are read.
 */
const FINE_RACY_MS = 20;
const SECOND_NS = 1_000_000_000n;

/** How long after its newest time a stamp stays racy, by the granularity the stamp shows. */
function racyWindowMs(s: FileStamp): number {
  return s.ctimeNs % SECOND_NS !== 0n || s.mtimeNs % SECOND_NS !== 0n ? FINE_RACY_MS : RACY_MS;
}

/** The stamp's newest time (ms): a write later than a tick after it changes the stamp. */
function newestMs(s: FileStamp): number {
  return Number((s.mtimeNs > s.ctimeNs ? s.mtimeNs : s.ctimeNs) / 1_000_000n);
}

/** Whether `s`, taken at `atMs`, does not prove that nothing was written after it was taken. */
export function stampIsRacy(s: FileStamp, atMs: number): boolean {
  return atMs - newestMs(s) < racyWindowMs(s);
}

/**
 * Waits, when the source's stamp is racy now with sub-second stamps, until it no longer is: a
 * read that begins after that leaves a stamp that proves whether anything was written since,
 * so a second change event for the write just read (a watcher's burst, a rescan) checks nothing,
 * where a racy stamp would make it read the whole file again to compare (an agent appending
 * every few seconds would have every append's stamp racy). The wait is at most one fine window;
 * whole-second stamps (a wait of up to 2 s) and a time ahead of the clock are not waited for:
 * those stay racy, and a change event checks the reading.
 */
export function stampSettled(source: ByteSource): Promise<void> | null {
  const s = source.stamp?.();
  if (!s || racyWindowMs(s) !== FINE_RACY_MS) return null;
  const until = newestMs(s) + FINE_RACY_MS;
  const wait = until - Date.now();
  // Null, not a resolved promise, when there is nothing to wait for: the caller reads in this very
  // task (an await would let other requests run between a reading's reset and its read).
  if (wait <= 0 || wait > FINE_RACY_MS) return null;
  return (async () => {
    // (Again when a timer fired early: the event loop's clock may lag the wall clock.)
    for (let w = wait; w > 0; w = until - Date.now()) await new Promise((r) => setTimeout(r, w));
  })();
}
