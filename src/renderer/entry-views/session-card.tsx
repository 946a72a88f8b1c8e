import { useEffect, useState } from 'react';
import './entry-views.css';
import type { EntryDetail, SessionInfo } from '../../shared/api';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { Icon } from '../icons/icon';
import { useAppStore } from '../store/app-store';
import { useSecretsStore } from '../store/secrets-store';
import { shortId } from '../util/format';
import { HeaderView } from './header-view';
import { isObj } from './parts';
import { sessionBadges, WarnBadge } from './session-warnings';
import { ParentSessionLink } from './session-links';

/**
 * The session-level card at the top of the History pane: the header's contract in one line
 * (its system prompt and tools on demand), every warning with its explanation, and the links
 * to the parent session and to child runs.
 */
export function SessionCard() {
  const info = useAppStore((s) => s.sessionInfo);
  const [open, setOpen] = useState(false);
  const secrets = useSecretsStore((s) => (info ? s.counts[info.summary.key] : undefined));
  if (!info) return null;
  const h = info.header;
  const badges = sessionBadges(info);
  const facts = h
    ? [
        h.provider,
        h.model,
        h.appVersion && `vak ${h.appVersion}`,
        h.permissionMode && `${h.permissionMode} mode`,
      ].filter((x): x is string => !!x)
    : [];
  return (
    <section className="session-card" aria-label="Session header">
      <div className="session-card-line">
        <button
          type="button"
          className="expand"
          aria-expanded={open}
          disabled={!h}
          onClick={() => setOpen((o) => !o)}
          title="Show the header: system prompt and tools"
        >
          {open ? '▾' : '▸'}
        </button>
        <span className="kind-icon">
          <Icon name="header" />
        </span>
        <b title={info.summary.sessionId}>{info.summary.agent}</b>
        <span className="session-card-facts">{h ? facts.join(' · ') : 'no header on line 1'}</span>
        {badges.map((b) => (
          <WarnBadge key={b.code} b={b} />
        ))}
        {secrets && secrets.count > 0 && (
          <span
            className="secrets-count"
            title="Secrets the scan found (secretlint's recommended rules): exports and copies redact them"
          >
            {secrets.count} secret{secrets.count === 1 ? '' : 's'}
            {secrets.scanning ? ' so far' : secrets.state === 'surveyed' ? ' (surveyed)' : ''}
          </span>
        )}
      </div>
      {h?.cwd && (
        <div className="session-card-line dim" title={h.cwd}>
          {h.cwd}
        </div>
      )}
      {info.summary.parentSession && (
        <div className="session-card-line">
          child of <ParentSessionLink />
        </div>
      )}
      {info.childRuns.length > 0 && <ChildRuns info={info} />}
      {open && h && <HeaderEntry sessionKey={info.key} id={h.entryId} />}
    </section>
  );
}

function ChildRuns({ info }: { info: SessionInfo }) {
  const openSessionAt = useAppStore((s) => s.openSessionAt);
  return (
    <div className="session-card-line">
      spawned{' '}
      {info.childRuns.map((c) =>
        c.key ? (
          <button
            key={c.entryId}
            type="button"
            className="ev-link session-link"
            title={`Open the ${c.agent} session ${c.childSessionId} (outcome: ${c.outcome})`}
            onClick={() => c.key && openSessionAt(c.key, null)}
          >
            <Icon name="child_run" /> {c.agent || 'child'} {shortId(c.childSessionId)} · {c.outcome}
          </button>
        ) : (
          <span key={c.entryId} className="dim" title="Not in this home">
            {c.agent} {shortId(c.childSessionId)} (not in this home)
          </span>
        ),
      )}
    </div>
  );
}

/** The header entry in full, fetched when the card is opened. */
function HeaderEntry({ sessionKey, id }: { sessionKey: string; id: string }) {
  const api = useApi();
  const [d, setD] = useState<EntryDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.getEntry({ key: sessionKey, id }).then(
      (r) => live && setD(r),
      (e: unknown) => live && setError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [api, sessionKey, id]);
  if (error) return <p className="error">{error}</p>;
  if (!d) return <p className="dim">loading…</p>;
  if (!isObj(d.json))
    return <p className="ev-note">The header line is too long to read here; see it raw in the History pane.</p>;
  return <HeaderView e={d.json} />;
}
