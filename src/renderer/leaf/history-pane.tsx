import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { ChainItem, LeafView } from '../../shared/api';
import { useApi } from '../api/api-context';
import { useAppStore } from '../store/app-store';
import { jumpToEntry } from '../tree/tree-nav';
import { HistoryItem } from './history-item';

/** The left column: the chain root → leaf, every kind, filterable by kind. */
export function HistoryPane({ view, sessionKey }: { view: LeafView; sessionKey: string }) {
  const hover = useAppStore((s) => s.hover);
  const pinned = useAppStore((s) => s.pinned);
  const hiddenKinds = useAppStore((s) => s.hiddenKinds);
  const set = useAppStore((s) => s.set);
  const api = useApi();
  const scrollRef = useRef<HTMLDivElement>(null);
  const onSelectLeaf = useCallback((id: string) => void jumpToEntry(api, id), [api]);
  const kinds = useMemo(() => {
    const m = new Map<string, number>();
    for (const c of view.chain) m.set(c.kind, (m.get(c.kind) ?? 0) + 1);
    return [...m.entries()];
  }, [view]);
  const items = useMemo(() => view.chain.filter((c) => !hiddenKinds.includes(c.kind)), [view, hiddenKinds]);
  const link = hover ?? pinned;
  const lit = useMemo(() => new Set(link?.entries ?? []), [link]);
  const msgs = view.projection.messages;

  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler in this build; the virtualizer re-renders on its own
  const virt = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 28,
    overscan: 12,
  });
  const firstLit = link?.entries[0];
  useEffect(() => {
    if (!firstLit || hover !== null) return;
    const i = items.findIndex((c) => c.id === firstLit);
    if (i >= 0) virt.scrollToIndex(i, { align: 'auto' });
  }, [firstLit, hover, items, virt]);

  const onHover = useCallback(
    (c: ChainItem | null) => set({ hover: c ? { entries: [c.id], messages: c.projectedAs, reason: c.hidden } : null }),
    [set],
  );
  const onPin = useCallback(
    (c: ChainItem) => {
      const cur = useAppStore.getState().pinned;
      set({
        pinned:
          cur?.entries.length === 1 && cur.entries[0] === c.id
            ? null
            : { entries: [c.id], messages: c.projectedAs, reason: c.hidden },
      });
    },
    [set],
  );
  const toggleKind = (k: string) =>
    set({ hiddenKinds: hiddenKinds.includes(k) ? hiddenKinds.filter((x) => x !== k) : [...hiddenKinds, k] });

  return (
    <section className="history-pane" aria-label="History">
      <header className="pane-head">
        <b>History</b> <span className="dim">{view.chain.length} entries root → leaf</span>
      </header>
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
      <div className="pane-scroll" ref={scrollRef}>
        <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
          {virt.getVirtualItems().map((it) => {
            const c = items[it.index];
            const label = c.projectedAs.length
              ? c.projectedAs.map((i) => `#${i} ${msgs[i]?.fidelity ?? ''}`).join(', ')
              : null;
            return (
              <div
                key={c.id}
                data-index={it.index}
                ref={virt.measureElement}
                style={{ position: 'absolute', top: it.start, left: 0, right: 0 }}
              >
                <HistoryItem
                  sessionKey={sessionKey}
                  item={c}
                  linked={lit.has(c.id)}
                  projectedLabel={label}
                  onHover={onHover}
                  onPin={onPin}
                  onSelectLeaf={onSelectLeaf}
                />
              </div>
            );
          })}
        </div>
      </div>
      {link?.reason && (
        <p className="link-reason" role="status">
          not model-visible: {link.reason}
        </p>
      )}
    </section>
  );
}
