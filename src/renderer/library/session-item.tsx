import type { SessionSummary } from '../../shared/api';
import { summaryBadges, WarnBadge } from '../entry-views/session-warnings';
import { Icon } from '../icons/icon';
import { useAppStore } from '../store/app-store';
import type { SecretCount } from '../../shared/api-secrets';
import { useRowSecrets } from '../store/secrets-store';
import { formatBytes, fmtInt, relativeTime, shortId } from '../util/format';
import './library.css';

interface Props {
  s: SessionSummary;
  selected: boolean;
  onOpen: (key: string) => void;
}

/**
 * How big the session is: its exact entry count once read; before that its file size, since
 * an estimate from the head's line lengths can be off by a factor of three.
 */
function sizeText(s: SessionSummary): { text: string; title: string } {
  if (s.entriesExact) return { text: `${fmtInt(s.entries)} entries`, title: `${formatBytes(s.sizeBytes)} on disk` };
  return { text: formatBytes(s.sizeBytes), title: 'Entries are counted when the session is opened.' };
}

/** One session line: title, warnings, model, age, size, branches, live dot, and its parent session. */
export function SessionItem({ s, selected, onOpen }: Props) {
  const size = sizeText(s);
  const badges = summaryBadges(s);
  const secrets = useRowSecrets(s.key);
  return (
    <li className="session-row">
      <button
        type="button"
        className={`session-item${selected ? ' selected' : ''}`}
        aria-current={selected ? 'true' : undefined}
        data-session-key={s.key}
        onClick={() => onOpen(s.key)}
        // The title is cut by an ellipsis when long: the hover shows it whole, then the file.
        title={s.title ? `${s.title}\n${s.key}` : s.key}
      >
        <span className="session-title-row">
          {s.lock === 'held' && <span className="live-dot" aria-label="live: an agent holds the lock" title="live" />}
          <span className="session-title">{s.title ?? s.sessionId}</span>
          {secrets && <SecretsState c={secrets} />}
          {badges.length > 0 && (
            <span className="session-badges">
              {badges.map((b) => (
                <WarnBadge key={b.code} b={b} />
              ))}
            </span>
          )}
        </span>
        <span className="session-meta">
          {s.model ?? 'no model'} · {relativeTime(s.lastTs ? Date.parse(s.lastTs) || s.mtimeMs : s.mtimeMs)} ·{' '}
          <span title={size.title}>{size.text}</span>
          {s.branches ? ` · ${s.branches} branch${s.branches === 1 ? '' : 'es'}` : ''}
        </span>
      </button>
      {s.parentSession && <ParentLink parent={s.parentSession} />}
    </li>
  );
}

/** How many secrets the scan found in the session (never which). */
export function SecretsBadge({ count, surveyed = false }: { count: number; surveyed?: boolean }) {
  const text = `${count} secret${count === 1 ? '' : 's'}`;
  const how = surveyed ? ' by the background survey (the session was not opened)' : '';
  return (
    <span className="secrets-badge" title={`${text} found${how}: exports redact them`} aria-label={`${text} found`}>
      {text}
    </span>
  );
}

/**
 * What the row says of the session's secrets: the count once scanned (opened, or surveyed in the
 * background), "surveying…" while the survey reads it, "not scanned yet" before it gets there,
 * "not counted" when the user turned the survey off and the session was not opened.
 */
function SecretsState({ c }: { c: SecretCount | 'not-counted' }) {
  if (c === 'not-counted')
    return (
      <span
        className="secrets-state not-counted"
        title="Secrets not counted: the background survey of sessions never opened is off (opening the session counts them)"
      >
        not counted
      </span>
    );
  if (c.state === 'pending')
    return (
      <span className="secrets-state" title="Not scanned for secrets yet: the background survey gets to it in turn">
        not scanned yet
      </span>
    );
  if (c.state === 'surveying' && c.count === 0)
    return (
      <span className="secrets-state" title="The background survey is counting this session's secrets">
        surveying…
      </span>
    );
  return c.count > 0 ? <SecretsBadge count={c.count} surveyed={c.state !== 'open'} /> : null;
}

/** "↳ child of …": opens the parent session at the entry that spawned this one. */
function ParentLink({ parent }: { parent: NonNullable<SessionSummary['parentSession']> }) {
  const key = parent.key;
  const title = useAppStore((st) => (key ? (st.sessions.find((x) => x.key === key)?.title ?? null) : null));
  const openSessionAt = useAppStore((st) => st.openSessionAt);
  const name = title ?? shortId(parent.sessionId);
  if (!key)
    return (
      <span className="session-parent dim" title={`Parent session ${parent.sessionId} is not in this home`}>
        <Icon name="parent" /> child of {shortId(parent.sessionId)} (not in this home)
      </span>
    );
  return (
    <button
      type="button"
      className="session-parent"
      title={`Spawned by session ${parent.sessionId} at entry ${parent.entryId}: open it there`}
      onClick={() => openSessionAt(key, parent.entryId)}
    >
      <Icon name="parent" /> child of <span className="session-parent-name">{name}</span>
    </button>
  );
}
