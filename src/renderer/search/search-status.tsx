import { fmtInt, formatBytes } from '../util/format';
import type { SearchSnapshot } from './search-run';

const plural = (n: number, one: string, many = `${one}s`): string => `${fmtInt(n)} ${n === 1 ? one : many}`;

/** Bytes are worth saying only when files are big enough for a scan to take a while. */
const BIG = 64 << 20;

/** Where a search stands: progress while it runs, the count once done, the error in place. */
export function SearchStatus({
  snap,
  waiting,
  onRetry,
}: {
  snap: SearchSnapshot | null;
  /** A query is typed and its search starts after the pause. */
  waiting: boolean;
  onRetry: () => void;
}) {
  if (!snap) return <p className="search-status">{waiting ? 'searching…' : ''}</p>;
  const sessions = snap.groups.length;
  const bytes = snap.totalBytes >= BIG ? ` · ${formatBytes(snap.scannedBytes)} of ${formatBytes(snap.totalBytes)}` : '';
  switch (snap.status) {
    case 'running':
      return (
        <p className="search-status" role="status">
          <progress value={snap.scannedBytes} max={Math.max(1, snap.totalBytes)} aria-label="Search progress" />
          searching {fmtInt(snap.filesScanned)} of {plural(snap.filesTotal, 'file')}
          {bytes} · {plural(snap.hits, 'hit')}
        </p>
      );
    case 'paused':
      return (
        <p className="search-status" role="status">
          {plural(snap.hits, 'hit')} so far in {plural(sessions, 'session')} · {fmtInt(snap.filesScanned)} of{' '}
          {plural(snap.filesTotal, 'file')} searched{bytes}
        </p>
      );
    case 'done':
      return (
        <p className="search-status" role="status">
          {snap.hits === 0
            ? `No match in ${plural(snap.filesTotal, 'file')}.`
            : `${plural(snap.hits, 'hit')} in ${plural(sessions, 'session')} (${plural(snap.filesTotal, 'file')} searched)`}
        </p>
      );
    case 'cancelled':
      // Stopped by the backend (a newer search of this window): the list so far stays.
      return (
        <p className="search-status">
          stopped · {plural(snap.hits, 'hit')} so far{' '}
          <button type="button" onClick={onRetry}>
            search again
          </button>
        </p>
      );
    case 'error':
      return (
        <p className="search-status error" role="alert">
          Search failed: {snap.error}{' '}
          <button type="button" onClick={onRetry}>
            retry
          </button>
        </p>
      );
  }
}
