import { useMemo, useState } from 'react';
import { SearchButton } from '../search/search-button';
import { useAppStore } from '../store/app-store';
import { shortPath } from '../util/format';
import { groupSessions, openedSessions } from './group-sessions';
import { FileNotice, OpenedFiles } from './opened-files';
import { SecretSurveyToggle } from './secret-survey-toggle';
import { SessionItem } from './session-item';
import { ResizeHandle } from '../layout/resize-handle';

/** The left column: every session of the home, grouped agent → working directory. */
export function LibrarySidebar() {
  const home = useAppStore((s) => s.home);
  const sessions = useAppStore((s) => s.sessions);
  const filter = useAppStore((s) => s.filter);
  const selected = useAppStore((s) => s.sessionKey);
  const error = useAppStore((s) => s.libraryError);
  const width = useAppStore((s) => s.sidebarWidth);
  const setFilter = useAppStore((s) => s.setFilter);
  const setSidebarWidth = useAppStore((s) => s.setSidebarWidth);
  const selectSession = useAppStore((s) => s.selectSession);
  const groups = useMemo(() => groupSessions(sessions, filter), [sessions, filter]);
  const opened = useMemo(() => openedSessions(sessions, filter), [sessions, filter]);
  const [closed, setClosed] = useState<Set<string>>(new Set());
  const toggle = (k: string) =>
    setClosed((c) => {
      const n = new Set(c);
      if (n.has(k)) n.delete(k);
      else n.add(k);
      return n;
    });

  return (
    <nav className="library" style={{ width }} aria-label="Library">
      <header className="library-head">
        {home?.isDemo ? (
          <span className="demo-label" title={home.home}>
            Demo home (bundled)
          </span>
        ) : (
          <span className="home-label" title={home?.home}>
            {home?.label ?? '…'}
          </span>
        )}
        <SearchButton />
      </header>
      <input
        id="library-filter"
        className="filter"
        type="search"
        placeholder="filter…  ( / )"
        aria-label="Filter sessions"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') (e.target as HTMLInputElement).blur();
        }}
      />
      {error && <p className="error">{error}</p>}
      <FileNotice />
      <ul className="library-tree">
        <OpenedFiles sessions={opened} />
        {groups.map((g) => (
          <li key={g.agent}>
            <button
              type="button"
              className="group agent"
              aria-expanded={!closed.has(g.agent)}
              onClick={() => toggle(g.agent)}
            >
              {closed.has(g.agent) ? '▸' : '▾'} {g.agent}
            </button>
            {!closed.has(g.agent) && (
              <ul>
                {g.cwds.map((c) => {
                  const k = `${g.agent}\u0000${c.cwd}`;
                  return (
                    <li key={c.cwd}>
                      <button
                        type="button"
                        className="group cwd"
                        aria-expanded={!closed.has(k)}
                        onClick={() => toggle(k)}
                        title={c.cwd}
                      >
                        {closed.has(k) ? '▸' : '▾'} {shortPath(c.cwd, home?.userHome)}
                      </button>
                      {!closed.has(k) && (
                        <ul>
                          {c.sessions.map((s) => (
                            <SessionItem key={s.key} s={s} selected={s.key === selected} onOpen={selectSession} />
                          ))}
                        </ul>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
          </li>
        ))}
        {groups.length === 0 && opened.length === 0 && (
          <li className="empty">
            {filter ? 'No session matches the filter.' : home || error ? 'No sessions.' : 'Loading the sessions…'}
          </li>
        )}
      </ul>
      <footer className="library-foot">
        <SecretSurveyToggle />
      </footer>
      <ResizeHandle width={width} onResize={setSidebarWidth} />
    </nav>
  );
}
