import { memo, type RefObject, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { LeafRequest, LeafView } from '../../shared/api';
import type { ProjectedMessage } from '../../shared/ledger-types';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { projectedSource, type ProjectedSource, setCurrentProjectedSource } from '../data/session-sources';
import { CopyButton } from '../export/copy-button';
import { redactedCopy } from '../export/use-secrets';
import { messageText } from '../export/exports';
import { exportTextForCopy, saveExport, TooBigToCopyError } from '../export/save-export';
import { useAppStore } from '../store/app-store';
import { fmtInt } from '../util/format';
import { PaneRowsBox, type PaneRect, usePaneRows, useRedrawOnPages } from './pane-rows';
import { ProjectedMessageView } from './projected-message-view';
import { TextViewContext, TextViewToggle, useTextView } from '../text/text-view';
import { VerbatimText } from '../text/verbatim-text';
import { TotalsBar } from './totals-bar';
import { MESSAGE_OVERSCAN } from '../util/leaf-screen';

/** Estimated height of a projected message (messages are measured once drawn). */
const MESSAGE_ESTIMATE = 96;
const MAIN_TITLE = 'Projected context';

interface Props {
  view: LeafView;
  /** The request that produced `view` (pages and clipped messages are fetched with it). */
  request: LeafRequest;
  title?: string;
}

/**
 * The right column: what the model is sent for this leaf, message by message, fetched by page as it scrolls.
 * Memoized: a new selection draws nothing here until its view arrives.
 */
export const ProjectedPane = memo(function ProjectedPane({ view, request, title = MAIN_TITLE }: Props) {
  const api = useApi();
  const p = view.projection;
  // A new view is a new source (and a new list, keyed by it: it opens at the leaf end again).
  const source = useMemo(() => projectedSource(api, request, view), [api, request, view]);
  const main = title === MAIN_TITLE;
  // The list's last size: a new view's list (a new source, a new list) draws its rows in its first render.
  const rect = useRef<PaneRect | null>(null);
  const learned = useRef<number | null>(null);
  const margin = useRef<number | null>(null);
  useEffect(() => {
    if (main) setCurrentProjectedSource(source);
    return () => {
      source.cancel();
      if (main) setCurrentProjectedSource(null);
    };
  }, [source, main]);
  const copyContext = useCallback(
    () => exportTextForCopy(api, { ...request, leaf: view.leaf, format: 'json' }),
    [api, request, view.leaf],
  );
  // Too big for the clipboard: the same text saved as a file, in chunks.
  const saveInstead = useCallback(
    (e: unknown) =>
      e instanceof TooBigToCopyError
        ? { label: 'save as a file', run: () => saveExport(api, { ...request, leaf: view.leaf, format: 'json' }) }
        : null,
    [api, request, view.leaf],
  );

  const [textView, toggleTextView] = useTextView('projected');

  return (
    <section className="projected-pane" aria-label={title}>
      <header className="pane-head">
        <b>{title}</b> <span className="dim pane-leaf">leaf {view.leaf}</span>
        <TextViewToggle view={textView} onToggle={toggleTextView} />
        <CopyButton
          label="copy all"
          name={`copy the whole ${title.toLowerCase()} (JSON)`}
          text={copyContext}
          offer={saveInstead}
        />
      </header>
      <TextViewContext value={textView}>
        <MessageList
          key={source.id}
          source={source}
          view={view}
          request={request}
          linkable={main}
          rect={rect}
          learned={learned}
          margin={margin}
        />
      </TextViewContext>
      <TotalsBar projection={p} profile={request.profile} />
    </section>
  );
});

interface ListProps {
  source: ProjectedSource;
  view: LeafView;
  request: LeafRequest;
  /** The main pane links to the History (a comparison's side B does not scroll it). */
  linkable: boolean;
  rect: RefObject<PaneRect | null>;
  /** The mean height of the messages measured last (pane-rows.tsx `learned`). */
  learned: RefObject<number | null>;
  /** The height above the list as the pane's last list measured it (kept like `rect`). */
  margin: RefObject<number | null>;
}

function MessageList({ source, view, request, linkable, rect, learned, margin: keptMarginRef }: ListProps) {
  const api = useApi();
  const hover = useAppStore((s) => s.hover);
  const pinned = useAppStore((s) => s.pinned);
  const setHover = useAppStore((s) => s.setHover);
  const togglePin = useAppStore((s) => s.togglePin);
  const [full, setFull] = useState<Record<number, ProjectedMessage>>({});
  const [error, setError] = useState<string | null>(null);
  useRedrawOnPages(source);
  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const windowRef = useRef<HTMLDivElement>(null);
  // The system prompt, tools and notes sit above the list in the same scroll box. A new list
  // starts from the height the last one measured: when it is the same (it mostly is: the same
  // prompt and tools), the read below changes nothing; from 0 every new view rendered and
  // committed its list a second time, synchronously, in the task a click waits on.
  // eslint-disable-next-line react-hooks/refs -- read once, in the list's first render: what the list before it left
  const [margin, setMargin] = useState(() => keptMarginRef.current ?? 0);
  useLayoutEffect(() => {
    const m = listRef.current?.offsetTop ?? 0;
    keptMarginRef.current = m;
    setMargin(m);
  }, [keptMarginRef]);
  const p = view.projection;
  const link = hover ?? pinned;
  const lit = useMemo(() => new Set(link?.messages ?? []), [link]);
  const pinnedSet = useMemo(() => new Set(pinned?.messages ?? []), [pinned]);

  // A message's key names its turn, fidelity and first source: a measured height is reused
  // only for the same message (a row not yet fetched is measured again once it is).
  const messageKey = useCallback(
    (i: number) => {
      const m = source.get(i)?.msg;
      return m ? `${i}:${m.fidelity}:${m.source_ids[0] ?? ''}` : `${i}:?`;
    },
    [source],
  );
  // Scaled past the browser's element height (pane-rows.tsx): any number of messages.
  const list = usePaneRows(
    {
      count: source.total,
      getScrollElement: () => scrollRef.current,
      estimateSize: () => MESSAGE_ESTIMATE,
      overscan: MESSAGE_OVERSCAN,
      firstOverscan: 1,
      rect,
      learned,
      getItemKey: messageKey,
      scrollMargin: margin,
      // Open at the leaf end, like the History pane: the newest messages at the bottom in view.
      openAtEnd: true,
    },
    listRef,
    windowRef,
  );
  const { items: rows, inView, scrollToIndex } = list;
  const first = rows[0]?.index ?? -1;
  const last = rows.at(-1)?.index ?? -1;
  useEffect(() => {
    if (first >= 0) source.ensure(first, last);
  }, [source, first, last]);

  // A link from the History or the tree (a hovered or pinned entry, a "→ #31" click) brings its
  // message into view, fetching its page when needed; a pin wins over a passing hover.
  const target =
    pinned && !pinned.fromMessage ? pinned.messages[0] : hover?.fromMessage ? undefined : hover?.messages[0];
  useEffect(() => {
    if (target === undefined || target >= source.total || inView(target)) return;
    scrollToIndex(target, 'center');
  }, [target, source, inView, scrollToIndex]);

  const messageAt = useCallback((i: number) => source.get(i)?.msg, [source]);
  const onHover = useCallback(
    (i: number | null) => {
      const m = i === null ? undefined : messageAt(i);
      setHover(i !== null && m ? { entries: m.source_ids, messages: [i], fromMessage: true } : null);
    },
    [setHover, messageAt],
  );
  const onPin = useCallback(
    (i: number) => {
      const m = messageAt(i);
      if (m) togglePin({ entries: m.source_ids, messages: [i], fromMessage: true });
    },
    [togglePin, messageAt],
  );
  const onOpenSource = useCallback(
    (i: number, id: string) => togglePin({ entries: [id], messages: [i], fromMessage: true }),
    [togglePin],
  );
  const onShowAll = useCallback(
    (i: number) => {
      api.getProjectedMessage({ ...request, leaf: view.leaf, message: i }).then(
        (m) => setFull((f) => ({ ...f, [i]: m })),
        (e: unknown) => setError(describeError(e)),
      );
    },
    [api, request, view.leaf],
  );
  // Copies are never clipped: a clipped message comes from the backend in full.
  const copyMessage = useCallback(
    async (i: number): Promise<string> => {
      const m = source.get(i);
      const have = full[i] ?? (m && !m.clipped ? m.msg : null);
      const text = messageText(have ?? (await api.getProjectedMessage({ ...request, leaf: view.leaf, message: i })));
      return redactedCopy(api, request.key, text);
    },
    [api, request, view.leaf, full, source],
  );

  return (
    <div className="pane-scroll" ref={scrollRef} {...list.scrollProps}>
      <details className="system-prompt">
        <summary>system prompt · {fmtInt(p.tokens.system)} tok</summary>
        <VerbatimText text={p.system} />
      </details>
      <details className="tools">
        <summary>
          tools ({p.tools.length}) · {fmtInt(p.tokens.tools)} tok
        </summary>
        <pre className="json">{JSON.stringify(p.tools, null, 2)}</pre>
      </details>
      {p.notes.length > 0 && (
        <ul className="notes">
          {p.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
      {(error ?? source.error) && <p className="error">{error ?? source.error}</p>}
      <PaneRowsBox rows={list} boxRef={listRef} windowRef={windowRef}>
        {rows.map((it) => {
          const m = source.get(it.index);
          if (!m)
            return (
              <div
                key={it.key}
                className="projected-placeholder"
                {...list.placeholder(it)}
                data-message-index={it.index}
              >
                #{it.index} …
              </div>
            );
          return (
            <div key={it.key} {...list.row(it)}>
              <ProjectedMessageView
                index={it.index}
                msg={full[it.index] ?? m.msg}
                clipped={m.clipped && !full[it.index]}
                linked={lit.has(it.index)}
                pinned={pinnedSet.has(it.index)}
                onHover={onHover}
                onPin={onPin}
                onOpenSource={linkable ? onOpenSource : undefined}
                onShowAll={onShowAll}
                onCopyText={copyMessage}
              />
            </div>
          );
        })}
      </PaneRowsBox>
    </div>
  );
}
