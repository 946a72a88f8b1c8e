/**
 * Watches the user's `prices.json` so an open cost panel follows an edit: a stat of the
 * file on an interval (it may not exist yet, and its folder may not either — a directory
 * watch could not start then), reported only when what identifies its content (inode,
 * size, mtime) changed. Reading stays where it was: each cost request loads the table.
 */
import { unwatchFile, watchFile, type Stats } from 'node:fs';

/** How often the file is looked at: an edit shows within about this long. */
export const PRICES_POLL_MS = 500;

/** What identifies a version of the file ("" when there is none). */
const versionOf = (st: Stats): string =>
  st.nlink === 0 && st.size === 0 && st.mtimeMs === 0 ? '' : `${st.ino}:${st.size}:${st.mtimeMs}`;

/** Calls `onChange` whenever `path` is created, edited, replaced or removed; returns the stop. */
export function watchPrices(path: string, onChange: () => void, intervalMs = PRICES_POLL_MS): () => void {
  const listener = (cur: Stats, prev: Stats): void => {
    if (versionOf(cur) !== versionOf(prev)) onChange();
  };
  watchFile(path, { interval: intervalMs, persistent: false }, listener);
  return () => unwatchFile(path, listener);
}
