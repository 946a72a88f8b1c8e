import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useApi } from '../api/api-context';
import { ResizeHandle } from '../layout/resize-handle';
import { useAppStore } from '../store/app-store';
import { openHit } from './open-hit';
import { ProjectedSearchView } from './projected-search-view';
import { resultRows } from './result-rows';
import { SearchFilters } from './search-filters';
import { searchParams } from './search-params';
import type { SearchRun } from './search-run';
import { hitDomId, SearchResults } from './search-results';
import { SearchStatus } from './search-status';
import { useSearch } from './use-search';
import './search.css';

/**
 * Search in the library's place: a query across every session of the home or
 * within the open one, filters, and the hits grouped by session. ↑/↓ move through the hits,
 * Enter opens one as the selected leaf, Esc returns to the library.
 */
export function SearchPanel() {
  const api = useApi();
  const query = useAppStore((s) => s.searchQuery);
  const scope = useAppStore((s) => s.searchScope);
  const filters = useAppStore((s) => s.searchFilters);
  const session = useAppStore((s) => s.sessionKey);
  const sessionTitle = useAppStore((s) => s.sessions.find((x) => x.key === s.sessionKey)?.title ?? null);
  const focusTick = useAppStore((s) => s.searchFocusTick);
  const width = useAppStore((s) => s.sidebarWidth);
  const setQuery = useAppStore((s) => s.setSearchQuery);
  const setScope = useAppStore((s) => s.setSearchScope);
  const setSidebarWidth = useAppStore((s) => s.setSidebarWidth);
  const close = useAppStore((s) => s.closeSearch);
  // What the model saw is searched by its own view (projected-search-view.tsx), not by this run.
  const projected = scope === 'projected' && session !== null;
  const params = projected ? null : searchParams(query, scope === 'session' ? 'session' : 'home', session, filters);
  const { run, snap, retry } = useSearch(api, params);
  const canMore = snap?.status === 'paused';
  const { rows, hitRow } = useMemo(
    () => resultRows(snap?.groups ?? [], !!snap && (snap.status === 'paused' || snap.status === 'running')),
    [snap],
  );
  // The cursor belongs to its search: a new search starts at its first hit.
  const [cursor, setCursor] = useState<{ run: SearchRun | null; active: number; reveal: number | null }>({
    run: null,
    active: 0,
    reveal: null,
  });
  const active = cursor.run === run ? cursor.active : 0;
  const reveal = cursor.run === run ? cursor.reveal : null;
  const setActive = (n: number, revealRow: number | null = null) => setCursor({ run, active: n, reveal: revealRow });
  const input = useRef<HTMLInputElement>(null);

  // Esc unmounts the panel: the focus goes back where it was before search opened. (Declared
  // before the effect that focuses the field, so it sees the focus as it was.)
  useEffect(() => {
    const before = document.activeElement;
    return () => {
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (lost && before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);

  // Every open (Ctrl/⌘+F, Ctrl/⌘+Shift+F, the palette) puts the focus in the field, query selected.
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [focusTick]);

  const more = useCallback(() => run?.more(), [run]);
  const hits = hitRow.length;
  const open = (n: number) => {
    const row = rows[hitRow[n] ?? -1];
    if (row?.type !== 'hit') return;
    setActive(n);
    void openHit(api, row.group.key, row.hit.entryId);
  };
  const move = (by: number) => {
    if (hits === 0) return;
    const n = Math.max(0, Math.min(hits - 1, active + by));
    setActive(n, hitRow[n]);
    if (n >= hits - 2) run?.more();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLSelectElement) return; // a select keeps its arrows
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'PageDown' || e.key === 'PageUp') {
      e.preventDefault();
      move(e.key === 'PageDown' ? 8 : -8);
    } else if (e.key === 'Enter' && !(e.target instanceof HTMLButtonElement)) {
      e.preventDefault();
      open(active);
    }
  };

  const inSession = scope === 'session' && session !== null;
  return (
    <nav className="library search-panel" style={{ width }} aria-label="Search" onKeyDown={onKeyDown}>
      <header className="library-head search-head">
        <span>Search</span>
        <span className="search-scope" role="group" aria-label="Search in">
          <button type="button" aria-pressed={!inSession && !projected} onClick={() => setScope('home')}>
            all sessions
          </button>
          <button
            type="button"
            aria-pressed={inSession}
            disabled={session === null}
            title={session === null ? 'Open a session to search within it' : (sessionTitle ?? session)}
            onClick={() => setScope('session')}
          >
            this session
          </button>
          <button
            type="button"
            aria-pressed={projected}
            disabled={session === null}
            title="What the model was sent: at the selected leaf, or at every turn end of its chain"
            onClick={() => setScope('projected')}
          >
            what the model saw
          </button>
        </span>
        <button
          type="button"
          className="search-close"
          aria-label="Close search (Esc)"
          title="Close search (Esc)"
          onClick={close}
        >
          ✕
        </button>
      </header>
      <input
        ref={input}
        id="search-input"
        className="filter search-input"
        type="search"
        placeholder={
          projected ? 'search what the model saw…' : inSession ? 'search this session…' : 'search every session…'
        }
        aria-label={
          projected ? 'Search what the model saw' : inSession ? 'Search this session' : 'Search every session'
        }
        aria-controls="search-results"
        aria-activedescendant={hits > 0 ? hitDomId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      {projected ? (
        <ProjectedSearchView query={query} />
      ) : (
        <>
          <SearchFilters />
          <SearchStatus snap={snap} waiting={params !== null} onRetry={retry} />
        </>
      )}
      {projected ? null : params === null ? (
        <div className="search-empty">
          <p>
            Type to search {inSession ? 'this session' : 'every session of the home'}: message text, tool inputs and
            results, audit payloads. An entry id finds that entry.
          </p>
          <p>
            <kbd>↑</kbd> <kbd>↓</kbd> move · <kbd>Enter</kbd> opens the entry as the selected leaf · <kbd>Esc</kbd> back
            to the library
          </p>
        </div>
      ) : (
        <SearchResults rows={rows} active={active} reveal={reveal} canMore={canMore} onMore={more} onOpen={open} />
      )}
      <ResizeHandle width={width} onResize={setSidebarWidth} />
    </nav>
  );
}
