import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LeafRequest, LeafView } from '../../shared/api';
import type { ProjectedMessage } from '../../shared/ledger-types';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { CopyButton } from '../export/copy-button';
import { messageText } from '../export/exports';
import { useAppStore } from '../store/app-store';
import { fmtInt } from '../util/format';
import { ProjectedMessageView } from './projected-message-view';
import { TotalsBar } from './totals-bar';

interface Props {
  view: LeafView;
  /** The request that produced `view` (to fetch clipped messages in full). */
  request: LeafRequest;
  title?: string;
}

/** The right column: what the model is sent for this leaf, message by message. */
export function ProjectedPane({ view, request, title = 'Projected context' }: Props) {
  const api = useApi();
  const hover = useAppStore((s) => s.hover);
  const pinned = useAppStore((s) => s.pinned);
  const setHover = useAppStore((s) => s.setHover);
  const togglePin = useAppStore((s) => s.togglePin);
  const [full, setFull] = useState<Record<number, ProjectedMessage>>({});
  const [error, setError] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const p = view.projection;
  const clipped = useMemo(() => new Set(view.clipped), [view]);
  const link = hover ?? pinned;
  const lit = useMemo(() => new Set(link?.messages ?? []), [link]);
  const pinnedSet = useMemo(() => new Set(pinned?.messages ?? []), [pinned]);

  // A new view (other leaf or plan) replaces every fetched full message.
  const [seen, setSeen] = useState(view);
  if (seen !== view) {
    setSeen(view);
    setFull({});
  }

  // A message's key names its turn, fidelity and first source: a measured height is reused
  // only for the same message (a new plan turns rows into other messages at the same index).
  const messageKey = useCallback(
    (i: number) => {
      const m = p.messages[i];
      return `${i}:${m?.fidelity}:${m?.source_ids[0] ?? ''}`;
    },
    [p.messages],
  );
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler in this build; the virtualizer re-renders on its own
  const virt = useVirtualizer({
    count: p.messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    overscan: 6,
    getItemKey: messageKey,
  });
  const firstLit = link?.messages[0];
  useEffect(() => {
    if (firstLit !== undefined && hover === null) virt.scrollToIndex(firstLit, { align: 'auto' });
  }, [firstLit, hover, virt]);

  const onHover = useCallback(
    (i: number | null) => {
      if (i === null) return setHover(null);
      const m = view.projection.messages[i];
      setHover({ entries: m.source_ids, messages: [i], fromMessage: true });
    },
    [setHover, view],
  );
  const onPin = useCallback(
    (i: number) => {
      const m = view.projection.messages[i];
      togglePin({ entries: m.source_ids, messages: [i], fromMessage: true });
    },
    [togglePin, view],
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

  // Copies are never clipped: a clipped message, and the whole context, come from the backend in full.
  const copyMessage = useCallback(
    async (i: number): Promise<string> => {
      const have = full[i] ?? (clipped.has(i) ? null : p.messages[i]);
      return messageText(have ?? (await api.getProjectedMessage({ ...request, leaf: view.leaf, message: i })));
    },
    [api, request, view.leaf, full, clipped, p.messages],
  );
  const copyContext = useCallback(
    async () => (await api.exportProjection({ ...request, leaf: view.leaf, format: 'json' })).text,
    [api, request, view.leaf],
  );

  return (
    <section className="projected-pane" aria-label={title}>
      <header className="pane-head">
        <b>{title}</b> <span className="dim">leaf {view.leaf}</span>
        <CopyButton label="copy all" name={`copy the whole ${title.toLowerCase()} (JSON)`} text={copyContext} />
      </header>
      <div className="pane-scroll" ref={scrollRef}>
        <details className="system-prompt">
          <summary>system prompt · {fmtInt(p.tokens.system)} tok</summary>
          <pre className="plain">{p.system}</pre>
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
        {error && <p className="error">{error}</p>}
        <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
          {virt.getVirtualItems().map((it) => (
            <div
              key={it.key}
              data-index={it.index}
              ref={virt.measureElement}
              style={{ position: 'absolute', top: it.start, left: 0, right: 0 }}
            >
              <ProjectedMessageView
                index={it.index}
                msg={full[it.index] ?? p.messages[it.index]}
                clipped={clipped.has(it.index) && !full[it.index]}
                linked={lit.has(it.index)}
                pinned={pinnedSet.has(it.index)}
                onHover={onHover}
                onPin={onPin}
                onShowAll={onShowAll}
                onCopyText={copyMessage}
              />
            </div>
          ))}
        </div>
      </div>
      <TotalsBar projection={p} profile={request.profile} />
    </section>
  );
}
