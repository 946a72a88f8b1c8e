import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { TreeRow } from '../../shared/api';
import { useApi } from '../api/api-context';
import { mayStartTurn, turnFidelitiesFor } from '../data/plan-sources';
import { useScaledRows } from '../data/scaled-rows';
import { currentChainSource, openTreeSource, type TreeSource } from '../data/session-sources';
import { useAppStore } from '../store/app-store';
import { panesBehind } from '../store/leaf-slice';
import { fmtInt, formatBytes } from '../util/format';
import { BranchComposer } from './branch-composer';
import { ROW_HEIGHT } from './lane-graph';
import { rowNumberOf, selectRowEntry } from './tree-nav';
import { TreeRowView } from './tree-row-view';
import { useCursorFollowsLeaf } from './use-cursor-follows-leaf';
import { afterPaint } from '../util/after-paint';
import { keepTreeViewport, lastTreeViewport } from '../data/tree-viewport';

/** The session's entries as a virtualized git-graph: only the visible rows are fetched and drawn. */
export function SessionTree() {
  const api = useApi();
  const info = useAppStore((s) => s.sessionInfo);
  const key = useAppStore((s) => s.sessionKey);
  const foldAudit = useAppStore((s) => s.foldAudit);
  const treeVersion = useAppStore((s) => s.treeVersion);
  const pinned = useAppStore((s) => s.pinned);
  const progress = useAppStore((s) => s.progress);
  const error = useAppStore((s) => s.sessionError);
  const toggleFoldAudit = useAppStore((s) => s.toggleFoldAudit);
  const placeCursor = useAppStore((s) => s.placeCursor);
  const revealRow = useAppStore((s) => s.revealRow);
  const total = info ? (foldAudit ? info.foldedRowCount : info.rowCount) : 0;
  const open = info !== null;
  useCursorFollowsLeaf(api);
  // The source follows the session and folding; a live change gives it a new total in place
  // (openTreeSource hands back the same source then).
  const tree = useMemo(
    () => (open && key ? openTreeSource(api, key, foldAudit, total) : null),
    [api, key, foldAudit, open, total],
  );
  // A reload (or an append without its delta) fetches every page again; a delta patched the rows itself.
  useEffect(() => {
    if (tree && treeVersion > 0) tree.invalidate(tree.foldAudit ? (info?.foldedRowCount ?? 0) : (info?.rowCount ?? 0));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new version invalidates, not new counts
  }, [tree, treeVersion]);

  // Folding renumbers rows: put the cursor back on the selected entry. Not before the session is
  // open: the open places the cursor (session-controller.ts), and a row asked before the open's
  // figures are known is asked again once they are.
  useEffect(() => {
    const s = useAppStore.getState();
    const leaf = s.leafView?.leaf ?? s.leaf;
    if (!leaf || !s.sessionInfo) return;
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

  return (
    <section className="tree" aria-label="Session tree">
      <header className="pane-head tree-head">
        {progress ? (
          // While the file is read: how many entries were read so far. The rest of the figures
          // (and the tree) may be those of a first part only until the read's end.
          <span>{fmtInt(Math.max(info.entryCount, progress.entriesRead))} entries so far</span>
        ) : (
          <span>
            {fmtInt(info.entryCount)} entries · {info.branchPoints} branch points · {info.leaves} leaves
          </span>
        )}
        <label className="fold-all">
          <input type="checkbox" checked={foldAudit} onChange={(e) => toggleFoldAudit(e.target.checked)} /> fold audit
          runs
        </label>
        {progress && (
          <span className="reading" title="The first rows are shown while the rest of the file is read">
            <progress value={progress.bytesRead} max={progress.bytesTotal} aria-label="Reading the session" />
            reading {Math.floor((100 * progress.bytesRead) / Math.max(1, progress.bytesTotal))} % of{' '}
            {formatBytes(progress.bytesTotal)}…
          </span>
        )}
      </header>
      {/* Keyed by the source: another session or folding starts a list of its own (no scroll offset carried over). */}
      <TreeList key={tree.id} tree={tree} />
    </section>
  );
}

/** Rows drawn beyond the screen's edges, for scrolling. */
const MARGIN = 12;
/**
 * The margin in a commit that draws many rows at once (a jump to a far row, its page arriving):
 * that commit's cost follows the rows it mounts, styles and lays out, so it draws the screen and
 * little more, and the rest of the margin follows after its paint.
 */
const FIRST_MARGIN = 2;
/** More new rows than this in one commit: draw the screen first. Scrolling brings a few per frame. */
const MANY_NEW_ROWS = 2 * MARGIN;

/**
 * The rows to draw: [first, last] (the screen and MARGIN rows beyond it), or only the screen and
 * FIRST_MARGIN rows when more than MANY_NEW_ROWS loaded rows would be drawn anew (`narrow`).
 */
export function rowsToDraw(
  first: number,
  last: number,
  count: number,
  isNew: (i: number) => boolean,
): { from: number; to: number; narrow: boolean } {
  let fresh = 0;
  for (let i = first; i <= last; i++) if (isNew(i)) fresh++;
  if (fresh <= MANY_NEW_ROWS) return { from: first, to: last, narrow: false };
  // At either end of the list the margin is cut short already: keep that side whole.
  const from = first === 0 ? first : Math.min(last, first + MARGIN - FIRST_MARGIN);
  const to = last === count - 1 ? last : Math.max(from, last - MARGIN + FIRST_MARGIN);
  return { from, to, narrow: from > first || to < last };
}

/** The scrolled rows of one tree source (scaled past the browser's element height: useScaledRows). */
function TreeList({ tree }: { tree: TreeSource }) {
  const api = useApi();
  const selectedRow = useAppStore((s) => s.selectedRow);
  const leafView = useAppStore((s) => s.leafView);
  const leafViewRequest = useAppStore((s) => s.leafViewRequest);
  const hover = useAppStore((s) => s.hover);
  const pinned = useAppStore((s) => s.pinned);
  const composerFor = useAppStore((s) => s.composerFor);
  const scrollToRow = useAppStore((s) => s.scrollToRow);
  const treeVersion = useAppStore((s) => s.treeVersion);
  const toggleFoldAudit = useAppStore((s) => s.toggleFoldAudit);
  const rowRevealed = useAppStore((s) => s.rowRevealed);
  const setHover = useAppStore((s) => s.setHover);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const scrollRef = useRef<HTMLDivElement>(null);
  useEffect(() => tree.subscribe(rerender), [tree]);

  const rowCount = tree.total;
  const rows = useScaledRows({
    count: rowCount,
    rowHeight: ROW_HEIGHT,
    scrollRef,
    overscan: MARGIN,
    ...(selectedRow !== null ? { initialRow: selectedRow } : {}),
    // Read once, by the list's first render.
    viewport: lastTreeViewport(),
    anchorRow: selectedRow,
  });
  const viewport = rows.viewport;
  useEffect(() => {
    if (viewport !== null) keepTreeViewport(viewport);
  }, [viewport]);
  const { first, last, scrollToIndex } = rows;
  // The source's generation: an invalidate (a reload) can land after this effect's fetch and abort it.
  const generation = tree.generation;
  useEffect(() => {
    if (rowCount > 0 && last >= first) tree.ensure(first, last);
  }, [tree, first, last, rowCount, treeVersion, generation]);

  useEffect(() => {
    if (scrollToRow === null) return;
    scrollToIndex(scrollToRow, 'auto');
    rowRevealed();
  }, [scrollToRow, scrollToIndex, rowRevealed]);

  const link = hover ?? pinned;
  const linked = useMemo(() => new Set(link?.entries ?? []), [link]);
  // A turn's fidelity in the selected leaf's plan, asked for the rows on screen only (plan rows are paged).
  const turnFid = useMemo(
    () => (leafView && leafViewRequest ? turnFidelitiesFor(api, leafViewRequest, leafView) : null),
    [api, leafView, leafViewRequest],
  );
  useEffect(() => {
    if (!turnFid) return;
    const unsubscribe = turnFid.subscribe(rerender);
    return () => {
      unsubscribe();
      turnFid.cancel();
    };
  }, [turnFid]);
  // Asked once the panes have drawn the view: an answer during their render would draw the tree
  // again in the middle of it.
  const behind = useAppStore(panesBehind);
  useEffect(() => {
    if (behind) return;
    const ids: string[] = [];
    for (let i = first; i <= last; i++) {
      const row = tree.get(i);
      if (row && mayStartTurn(row)) ids.push(row.id);
    }
    turnFid?.want(ids);
  });
  const selectedLeafId = leafView?.leaf ?? null;

  // The same function from render to render (it reads the view when called): the rows are
  // memoized, and a selection must not draw every row again (the renderer never blocks).
  const onHover = useCallback(
    (row: TreeRow | null) => {
      if (!row) return setHover(null);
      // Where an entry went, and why not, is known for the chain items loaded (the leaf end, and what the History pane fetched).
      const view = useAppStore.getState().leafView;
      const c = view?.chain.find((x) => x.id === row.id) ?? currentChainSource()?.find((x) => x.id === row.id)?.item;
      setHover({ entries: [row.id], messages: c?.projectedAs ?? [], reason: c?.hidden ?? null });
    },
    [setHover],
  );
  // The loaded rows the last commit drew: a commit drawing many more draws the screen first.
  // Read in render on purpose: what was drawn decides only how much of the margin this commit draws.
  const drawn = useRef(new Set<number>());
  // eslint-disable-next-line react-hooks/refs -- see above; a later commit draws the rest either way
  const { from, to, narrow } = rowsToDraw(first, last, rowCount, (i) => !drawn.current.has(i) && !!tree.get(i));
  const indexes: number[] = [];
  for (let i = from; i <= to; i++) indexes.push(i);
  useLayoutEffect(() => {
    const now = new Set<number>();
    for (const i of indexes) if (tree.get(i)) now.add(i);
    drawn.current = now;
  });
  useEffect(() => {
    if (!narrow) return;
    return afterPaint(rerender);
  }, [narrow, from, to]);
  const composerIndex = composerFor ? indexes.find((i) => tree.get(i)?.id === composerFor) : undefined;
  // Rows not loaded are drawn as placeholders only once the list has painted: before, their page
  // is on its way (asked with the open, or by it), and a placeholder would only be removed for
  // its row in the next commit, before any frame shows it.
  const [pendingShown, showPending] = useState(false);
  useEffect(() => afterPaint(() => showPending(true)), []);

  return (
    <>
      <div
        ref={scrollRef}
        className="tree-scroll"
        tabIndex={0}
        role="listbox"
        aria-label="Entries"
        aria-activedescendant={selectedRow !== null ? `tree-row-${selectedRow}` : undefined}
        // How many rows it holds (the content's height is not: it scrolls scaled past a browser's limit).
        data-rows={rowCount}
      >
        <div style={{ height: rows.height, position: 'relative' }}>
          {indexes.map((i) => {
            const row = tree.get(i);
            const top = rows.topOf(i);
            if (!row) {
              if (!pendingShown) return null;
              return (
                <div key={i} className="tree-row placeholder" style={{ top, height: ROW_HEIGHT }}>
                  …
                </div>
              );
            }
            return (
              <TreeRowView
                key={i}
                row={row}
                top={top}
                laneCount={tree.meta ?? 1}
                cursor={row.row === selectedRow}
                selectedLeaf={row.id === selectedLeafId}
                linked={linked.has(row.id)}
                turnFidelity={turnFid?.get(row.id) ?? null}
                onSelect={selectRowEntry}
                onHover={onHover}
                onToggleFold={toggleFoldAudit}
              />
            );
          })}
          {composerFor && composerIndex !== undefined && (
            <BranchComposer key={composerFor} parentId={composerFor} top={rows.topOf(composerIndex) + ROW_HEIGHT} />
          )}
        </div>
      </div>
      {composerFor && composerIndex === undefined && (
        <div className="composer-dock">
          <BranchComposer key={composerFor} parentId={composerFor} top={0} />
        </div>
      )}
      {tree.error && <p className="error">{tree.error}</p>}
    </>
  );
}
