import { memo, type RefObject, useCallback, useEffect, useMemo, useRef } from 'react';
import type { ChainItem, LeafRequest, LeafView } from '../../shared/api';
import { useApi } from '../api/api-context';
import {
  chainRowOf,
  chainSource,
  type ChainSource,
  currentProjectedSource,
  setCurrentChainSource,
} from '../data/session-sources';
import { useAppStore } from '../store/app-store';
import { jumpToEntry } from '../tree/tree-nav';
import { HistoryItem } from './history-item';
import { SessionCard } from '../entry-views/session-card';
import { ownValue } from '../../shared/own-key';
import { PaneRowsBox, type PaneRect, usePaneRows, useRedrawOnPages } from './pane-rows';
import { TextViewContext, TextViewToggle, useTextView } from '../text/text-view';
import { HISTORY_OVERSCAN, HISTORY_ROW_PX } from '../util/leaf-screen';
import { fmtInt } from '../util/format';

/** Estimated height of a history row (util/leaf-screen.ts): rows are measured once drawn. */
const ROW_ESTIMATE = HISTORY_ROW_PX;

interface Props {
  view: LeafView;
  /** The request `view` answers: pages of its chain are asked for with it. */
  request: LeafRequest;
  sessionKey: string;
}

/**
 * The left column: the chain root → leaf, every kind, filterable by kind; fetched by page as it scrolls.
 * Memoized: a new selection draws nothing here until its view arrives.
 */
export const HistoryPane = memo(function HistoryPane({ view, request, sessionKey }: Props) {
  const hiddenKinds = useAppStore((s) => s.hiddenKinds);
  const link = useAppStore((s) => s.hover ?? s.pinned);
  const toggleKind = useAppStore((s) => s.toggleKind);
  const showAllKinds = useAppStore((s) => s.showAllKinds);
  const api = useApi();
  // A new view or filter is a new source (and a new list, keyed by it: it starts at the leaf end again).
  const source = useMemo(() => chainSource(api, request, view, hiddenKinds), [api, request, view, hiddenKinds]);
  useEffect(() => {
    setCurrentChainSource(source);
    return () => {
      source.cancel();
      setCurrentChainSource(null);
    };
  }, [source]);
  // The list's last size: a new view's list (a new source, a new list) draws its rows in its first render.
  const rect = useRef<PaneRect | null>(null);
  const kinds = Object.entries(view.kindCounts);
  const allHidden = kinds.length > 0 && kinds.every(([k]) => hiddenKinds.includes(k));
  const [textView, toggleTextView] = useTextView('history');

  return (
    <section className="history-pane" aria-label="History">
      <header className="pane-head">
        <b>History</b> <span className="dim">{fmtInt(view.chainLength)} entries root → leaf</span>
        <TextViewToggle view={textView} onToggle={toggleTextView} />
      </header>
      <SessionCard />
      <div className="chips" role="group" aria-label="Filter by kind">
        {kinds.map(([k, n]) => (
          <button
            key={k}
            type="button"
            className="chip"
            aria-pressed={!hiddenKinds.includes(k)}
            onClick={() => toggleKind(k)}
          >
            {k} {n}
          </button>
        ))}
      </div>
      {allHidden && (
        // Never an empty History without saying why.
        <p className="kinds-all-hidden" role="status">
          All kinds hidden.{' '}
          <button type="button" className="link-button" onClick={showAllKinds}>
            Show all
          </button>
        </p>
      )}
      <TextViewContext value={textView}>
        <HistoryList key={source.id} source={source} view={view} sessionKey={sessionKey} rect={rect} />
      </TextViewContext>
      {link?.reason && (
        <p className="link-reason" role="status">
          not model-visible: {link.reason}
        </p>
      )}
    </section>
  );
});

interface ListProps {
  source: ChainSource;
  view: LeafView;
  sessionKey: string;
  rect: RefObject<PaneRect | null>;
}

function HistoryList({ source, view, sessionKey, rect }: ListProps) {
  const api = useApi();
  const hover = useAppStore((s) => s.hover);
  const pinned = useAppStore((s) => s.pinned);
  const setHover = useAppStore((s) => s.setHover);
  const togglePin = useAppStore((s) => s.togglePin);
  const scrollRef = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const windowRef = useRef<HTMLDivElement>(null);
  useRedrawOnPages(source);
  const onSelectLeaf = useCallback((id: string) => void jumpToEntry(api, id), [api]);
  const link = hover ?? pinned;
  const lit = useMemo(() => new Set(link?.entries ?? []), [link]);

  // Scaled past the browser's element height (pane-rows.tsx): any chain length.
  const list = usePaneRows(
    {
      count: source.total,
      getScrollElement: () => scrollRef.current,
      estimateSize: () => ROW_ESTIMATE,
      overscan: HISTORY_OVERSCAN,
      firstOverscan: 2,
      rect,
      // Start at the leaf end: what a user looks at first, and the window the view came with.
      initialOffset: () => source.total * ROW_ESTIMATE,
    },
    boxRef,
    windowRef,
  );
  const { items: rows, inView, scrollToIndex } = list;
  // -1 before the first layout (no rows yet): nothing to fetch, the view's own window is on screen.
  const first = rows[0]?.index ?? -1;
  const last = rows.at(-1)?.index ?? -1;
  useEffect(() => {
    if (first >= 0) source.ensure(first, last);
  }, [source, first, last]);

  // A pinned link, or a hovered projected message, brings its first source entry into view
  // (fetching it when needed); a pin wins over a passing hover.
  const target = pinned ? pinned.entries[0] : hover?.fromMessage ? hover.entries[0] : undefined;
  useEffect(() => {
    if (target === undefined) return;
    const pos =
      ownValue(view.sourcePositions, target) ??
      currentProjectedSource()?.positions.get(target) ??
      source.find((c) => c.id === target)?.item.pos;
    const row = pos === undefined ? undefined : chainRowOf(source, pos);
    if (row === undefined || inView(row)) return;
    scrollToIndex(row, 'center');
  }, [target, view, source, inView, scrollToIndex]);

  const onHover = useCallback(
    (c: ChainItem | null) => setHover(c ? { entries: [c.id], messages: c.projectedAs, reason: c.hidden } : null),
    [setHover],
  );
  const onPin = useCallback(
    (c: ChainItem) => togglePin({ entries: [c.id], messages: c.projectedAs, reason: c.hidden }),
    [togglePin],
  );
  const onOpenMessage = useCallback(
    (c: ChainItem, i: number) => togglePin({ entries: [c.id], messages: [i], reason: null }),
    [togglePin],
  );

  return (
    <div className="pane-scroll" ref={scrollRef} {...list.scrollProps}>
      <PaneRowsBox rows={list} boxRef={boxRef} windowRef={windowRef}>
        {rows.map((it) => {
          const c = source.get(it.index);
          if (!c)
            return (
              <div key={it.key} className="history-placeholder" {...list.placeholder(it)}>
                …
              </div>
            );
          return (
            <div key={it.key} {...list.row(it)}>
              <HistoryItem
                sessionKey={sessionKey}
                item={c}
                linked={lit.has(c.id)}
                projected={projectedOf(c)}
                onOpenMessage={onOpenMessage}
                onHover={onHover}
                onPin={onPin}
                onSelectLeaf={onSelectLeaf}
              />
            </div>
          );
        })}
      </PaneRowsBox>
      {source.error && <p className="error">{source.error}</p>}
    </div>
  );
}

type ProjectedLinks = readonly { index: number; label: string }[];
/** One list per chain item: the row is memoized, and a new array each render drew every row again on any hover. */
const linksOf = new WeakMap<ChainItem, ProjectedLinks>();
/** Where an item went in the projected pane; its fidelity comes with it (its page may not be loaded). */
export function projectedOf(c: ChainItem): ProjectedLinks {
  let links = linksOf.get(c);
  if (!links) {
    links = c.projectedAs.map((i, k) => {
      const f = c.projectedFidelity[k];
      return { index: i, label: `#${i}${f ? ` ${f}` : ''}` };
    });
    linksOf.set(c, links);
  }
  return links;
}
