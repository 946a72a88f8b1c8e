import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useReducer, useRef } from 'react';
import type { TreeRow } from '../../shared/api';
import type { Fidelity } from '../../shared/ledger-types';
import { useApi } from '../api/api-context';
import { currentChainSource, openTreeSource } from '../data/session-sources';
import { useAppStore } from '../store/app-store';
import { formatBytes } from '../util/format';
import { BranchComposer } from './branch-composer';
import { ROW_HEIGHT } from './lane-graph';
import { rowNumberOf, selectRowEntry } from './tree-nav';
import { TreeRowView } from './tree-row-view';

/** The session's entries as a virtualized git-graph: only the visible rows are fetched and drawn. */
export function SessionTree() {
  const api = useApi();
  const info = useAppStore((s) => s.sessionInfo);
  const key = useAppStore((s) => s.sessionKey);
  const foldAudit = useAppStore((s) => s.foldAudit);
  const treeVersion = useAppStore((s) => s.treeVersion);
  const selectedRow = useAppStore((s) => s.selectedRow);
  const leafView = useAppStore((s) => s.leafView);
  const hover = useAppStore((s) => s.hover);
  const pinned = useAppStore((s) => s.pinned);
  const composerFor = useAppStore((s) => s.composerFor);
  const scrollToRow = useAppStore((s) => s.scrollToRow);
  const progress = useAppStore((s) => s.progress);
  const error = useAppStore((s) => s.sessionError);
  const toggleFoldAudit = useAppStore((s) => s.toggleFoldAudit);
  const placeCursor = useAppStore((s) => s.placeCursor);
  const revealRow = useAppStore((s) => s.revealRow);
  const rowRevealed = useAppStore((s) => s.rowRevealed);
  const setHover = useAppStore((s) => s.setHover);
  const total = info ? (foldAudit ? info.foldedRowCount : info.rowCount) : 0;
  const tree = useMemo(
    () => (info && key ? openTreeSource(api, key, foldAudit, total) : null),
    [api, key, foldAudit, info, total],
  );
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const scrollRef = useRef<HTMLDivElement>(null);

  useEffect(() => tree?.subscribe(rerender), [tree]);
  useEffect(() => {
    if (tree && treeVersion > 0) tree.invalidate(total);
  }, [tree, treeVersion, total]);

  const rowCount = tree?.total ?? 0;
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler in this build; the virtualizer re-renders on its own
  const virt = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 24,
  });
  const items = virt.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (tree && rowCount > 0) tree.ensure(first, last);
  }, [tree, first, last, rowCount, treeVersion]);

  useEffect(() => {
    if (scrollToRow === null) return;
    virt.scrollToIndex(scrollToRow, { align: 'auto' });
    rowRevealed();
  }, [scrollToRow, virt, rowRevealed]);

  // Folding renumbers rows: put the cursor back on the selected entry.
  useEffect(() => {
    const s = useAppStore.getState();
    const leaf = s.leafView?.leaf ?? s.leaf;
    if (!leaf) return;
    let live = true;
    rowNumberOf(api, leaf).then(
      (n) => live && n !== undefined && placeCursor(n, true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, foldAudit, placeCursor]);

  // A pinned link (a click on a projected message or an entry id) brings its first entry into view.
  const pinnedFirst = pinned?.entries[0];
  useEffect(() => {
    if (!pinnedFirst) return;
    let live = true;
    rowNumberOf(api, pinnedFirst).then(
      (n) => live && n !== undefined && revealRow(n),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, pinnedFirst, revealRow]);

  const link = hover ?? pinned;
  const linked = useMemo(() => new Set(link?.entries ?? []), [link]);
  const turnFid = useMemo(() => {
    const m = new Map<string, Fidelity>();
    for (const msg of leafView?.projection.messages ?? [])
      if (msg.turn_id && !m.has(msg.turn_id)) m.set(msg.turn_id, msg.fidelity);
    return m;
  }, [leafView]);
  const selectedLeafId = leafView?.leaf ?? null;
  // Where each entry went, from the whole projection (the chain itself is paged).
  const messagesById = useMemo(() => {
    const m = new Map<string, number[]>();
    leafView?.projection.messages.forEach((msg, k) => {
      for (const id of msg.source_ids) m.set(id, [...(m.get(id) ?? []), k]);
    });
    return m;
  }, [leafView]);

  if (!key) return <section className="tree empty-pane">Choose a session in the library.</section>;
  if (error) return <section className="tree empty-pane error">{error}</section>;
  if (!info || !tree) {
    return (
      <section className="tree empty-pane" aria-busy="true">
        Opening…
        {progress && (
          <progress value={progress.bytesRead} max={progress.bytesTotal} aria-label="Reading the session">
            {formatBytes(progress.bytesRead)}
          </progress>
        )}
        {progress && (
          <span>
            {formatBytes(progress.bytesRead)} / {formatBytes(progress.bytesTotal)}
          </span>
        )}
      </section>
    );
  }

  const onHover = (row: TreeRow | null) => {
    if (!row) return setHover(null);
    // Why an entry is hidden is known for the chain items loaded (the leaf end, and what the History pane fetched).
    const c = leafView?.chain.find((x) => x.id === row.id) ?? currentChainSource()?.find((x) => x.id === row.id)?.item;
    setHover({ entries: [row.id], messages: messagesById.get(row.id) ?? [], reason: c?.hidden ?? null });
  };
  const composerRow = composerFor ? items.find((i) => tree.get(i.index)?.id === composerFor) : undefined;

  return (
    <section className="tree" aria-label="Session tree">
      <header className="pane-head">
        <span>
          {info.entryCount.toLocaleString('en-US')} entries · {info.branchPoints} branch points · {info.leaves} leaves
        </span>
        <label className="fold-all">
          <input type="checkbox" checked={foldAudit} onChange={(e) => toggleFoldAudit(e.target.checked)} /> fold audit
          runs
        </label>
        {progress && <progress value={progress.bytesRead} max={progress.bytesTotal} aria-label="Reading the session" />}
      </header>
      <div
        ref={scrollRef}
        className="tree-scroll"
        tabIndex={0}
        role="listbox"
        aria-label="Entries"
        aria-activedescendant={selectedRow !== null ? `tree-row-${selectedRow}` : undefined}
      >
        <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
          {items.map((it) => {
            const row = tree.get(it.index);
            if (!row)
              return (
                <div key={it.key} className="tree-row placeholder" style={{ top: it.start, height: ROW_HEIGHT }}>
                  …
                </div>
              );
            return (
              <TreeRowView
                key={it.key}
                row={row}
                top={it.start}
                laneCount={tree.meta ?? 1}
                cursor={row.row === selectedRow}
                selectedLeaf={row.id === selectedLeafId}
                linked={linked.has(row.id)}
                turnFidelity={turnFid.get(row.id) ?? null}
                onSelect={selectRowEntry}
                onHover={onHover}
                onToggleFold={toggleFoldAudit}
              />
            );
          })}
          {composerFor && composerRow && (
            <BranchComposer key={composerFor} parentId={composerFor} top={composerRow.start + ROW_HEIGHT} />
          )}
        </div>
      </div>
      {composerFor && !composerRow && (
        <div className="composer-dock">
          <BranchComposer key={composerFor} parentId={composerFor} top={0} />
        </div>
      )}
      {tree.error && <p className="error">{tree.error}</p>}
    </section>
  );
}
