import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { kindIcon, kindLabel } from '../tree/kind-icons';
import { shortPath, timeOfDay } from '../util/format';
import { MatchText } from './match-text';
import { fieldLabel, ROW_PX, type ResultRow } from './result-rows';

interface Props {
  rows: ResultRow[];
  /** Hit number of the active result. */
  active: number;
  /** Row index to bring into view (the active hit's), or null. */
  reveal: number | null;
  /** More hits can be asked for (the list's end asks by itself). */
  canMore: boolean;
  onMore: () => void;
  onOpen: (n: number) => void;
}

/** Row id of a hit, for aria-activedescendant. */
export const hitDomId = (n: number): string => `search-hit-${n}`;

/** The results, virtualized: session headings and hits with their match in context. */
export function SearchResults({ rows, active, reveal, canMore, onMore, onOpen }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler in this build; the virtualizer re-renders on its own
  const virt = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => ROW_PX[rows[i].type],
    overscan: 8,
  });
  const items = virt.getVirtualItems();
  const last = items.at(-1)?.index ?? -1;
  // Scrolled near the end: ask for the next hits without a click.
  useEffect(() => {
    if (canMore && last >= rows.length - 3) onMore();
  }, [canMore, last, rows.length, onMore]);
  useEffect(() => {
    if (reveal !== null) virt.scrollToIndex(reveal, { align: 'auto' });
  }, [reveal, virt]);

  return (
    <div
      ref={scrollRef}
      className="search-scroll"
      role="listbox"
      id="search-results"
      aria-label="Search results"
      aria-activedescendant={rows.length > 0 ? hitDomId(active) : undefined}
    >
      <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
        {items.map((it) => {
          const row = rows[it.index];
          const style = { top: it.start, height: ROW_PX[row.type] };
          if (row.type === 'session') {
            const g = row.group;
            return (
              <div key={it.key} className="search-session" style={style} role="presentation" title={g.key}>
                <span className="search-session-title">{g.title ?? g.sessionId}</span>
                <span className="search-session-meta">
                  {g.agent} · {g.cwd ? shortPath(g.cwd) : 'no cwd'}
                </span>
              </div>
            );
          }
          if (row.type === 'more') {
            return (
              <div key={it.key} className="search-more" style={style} role="presentation">
                <button type="button" tabIndex={-1} onClick={onMore} disabled={!canMore}>
                  more…
                </button>
              </div>
            );
          }
          const { hit, n } = row;
          return (
            <div
              key={it.key}
              id={hitDomId(n)}
              className={`search-hit${n === active ? ' active' : ''}`}
              style={style}
              role="option"
              aria-selected={n === active}
              data-entry-id={hit.entryId}
              onClick={() => onOpen(n)}
            >
              <span className="search-hit-head">
                <span className="search-kind" title={hit.kind}>
                  {kindIcon(hit.kind)} {kindLabel(hit.kind)}
                </span>
                <span className="search-field" title={`${hit.field} · line ${hit.line}`}>
                  {fieldLabel(hit.field)}
                  {hit.moreFields > 0 && ` +${hit.moreFields}`}
                </span>
                <span className="search-ts" title={hit.ts}>
                  {timeOfDay(hit.ts)}
                </span>
              </span>
              <MatchText text={hit.snippet} matches={hit.matches} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
