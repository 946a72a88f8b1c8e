import type { SessionSummary } from '../../shared/api';
import { relativeTime } from '../util/format';

interface Props {
  s: SessionSummary;
  selected: boolean;
  onOpen: (key: string) => void;
}

/** One session line: title, model, age, size, branches, warnings, live dot. */
export function SessionItem({ s, selected, onOpen }: Props) {
  const entries = `${s.entriesExact ? '' : '~'}${s.entries} entries`;
  return (
    <li>
      <button
        type="button"
        className={`session-item${selected ? ' selected' : ''}`}
        aria-current={selected ? 'true' : undefined}
        onClick={() => onOpen(s.key)}
        title={s.key}
      >
        <span className="session-title">
          {s.lock === 'held' && <span className="live-dot" aria-label="live: an agent holds the lock" title="live" />}
          {s.title ?? s.sessionId}
          {s.unreadable !== null && (
            <span className="warn-badge" aria-label={`not read: ${s.unreadable}`} title={s.unreadable}>
              ⚠ not read
            </span>
          )}
          {s.warnings ? (
            <span className="warn-badge" aria-label={`${s.warnings} warnings`}>
              ⚠ {s.warnings}
            </span>
          ) : s.warnings === null && s.tailUnterminated && s.lock === 'free' ? (
            // Before the session is opened only its last byte is known: no agent is writing, yet no final \n.
            <span
              className="warn-badge"
              aria-label="torn tail: the last line has no newline; open the session for all warnings"
              title="The last line has no \n and no agent holds the file: a torn tail. Open the session for all warnings."
            >
              ⚠ tail
            </span>
          ) : null}
        </span>
        <span className="session-meta">
          {s.model ?? 'no model'} · {relativeTime(s.lastTs ? Date.parse(s.lastTs) || s.mtimeMs : s.mtimeMs)} · {entries}
          {s.branches ? ` · ${s.branches} branch${s.branches === 1 ? '' : 'es'}` : ''}
        </span>
      </button>
    </li>
  );
}
