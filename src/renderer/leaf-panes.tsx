import { startTransition, useDeferredValue, useEffect, useRef, useState } from 'react';
import type { LeafRequest, LeafView } from '../shared/api';
import { ExportMenu } from './export/export-menu';
import { PaneHandle } from './layout/pane-handle';
import { UnknownLeaf, useUnknownLeaf } from './layout/unknown-leaf';
import { CompareView } from './plan/compare-view';
import { useAppStore } from './store/app-store';
import { shortId, timeOfDay } from './util/format';
import { HistoryPane } from './leaf/history-pane';
import { LinkLines } from './leaf/link-lines';
import { ProjectedPane } from './leaf/projected-pane';
import { useLeafRequest } from './leaf/use-leaf-view';

/** The right region: History ∥ Projected context for the selected leaf, or the comparison. */
export function LeafPanes() {
  // A new view is drawn as a deferred (concurrent) render: React draws both panes in slices that
  // yield to the browser, instead of one task that blocks it (no task over 50 ms). Until
  // it is committed the panes show the previous view, as while it loads.
  const latest = useAppStore((s) => s.leafView);
  const view = useDeferredValue(latest);
  const viewReq = useDeferredValue(useAppStore((s) => s.leafViewRequest));
  const error = useAppStore((s) => s.leafError);
  const loading = useAppStore((s) => s.leafLoading);
  const reading = useAppStore((s) => s.sessionInfo?.reading != null);
  const compareOpen = useAppStore((s) => s.compare.open);
  const columns = useRef<HTMLDivElement>(null);
  const req = useLeafRequest();
  const projected = useProjectedAfterHistory(view, viewReq);
  const unknownLeaf = useUnknownLeaf(req, error !== null);
  if (!req)
    return (
      <section className="leaf-panes empty-pane">
        History and projected context appear here. Press ? for the keys.
      </section>
    );
  if (unknownLeaf && req.leaf !== null)
    return (
      <section className="leaf-panes empty-pane">
        <UnknownLeaf leaf={req.leaf} />
      </section>
    );
  if (!view) {
    // The active leaf of a session still read in steps is the file's last entry: it waits for the read.
    const waiting = reading && req.leaf === null ? 'Reading the session: the active leaf comes when it is read…' : null;
    return (
      <section className="leaf-panes empty-pane">{error ?? (loading ? (waiting ?? 'Loading the leaf…') : '')}</section>
    );
  }
  const leafItem = view.chain.at(-1);
  return (
    // data-leaf-id + aria-busy say which leaf both panes show and whether a newer one is loading
    // or not drawn yet (the UI bench and e2e wait on them).
    <section
      className="leaf-panes"
      aria-busy={loading || view !== latest || projected.view !== view}
      data-leaf-id={view.leaf}
    >
      <PaneHandle pane="tree" label="session tree" measure={() => document.querySelector('section.tree')} />
      <header className="leaf-head">
        leaf <b title={view.leaf}>{shortId(view.leaf)}</b>
        {leafItem ? ` · ${timeOfDay(leafItem.ts)}` : ''}
        {req.leaf === null && <span className="mark active"> (active leaf)</span>}
        {error && <span className="error"> {error}</span>}
        <ExportMenu />
      </header>
      <div className={`leaf-columns${compareOpen ? ' comparing' : ''}`} ref={columns}>
        {/* The request `view` answers (not the newer selection's): the panes keep still while a new view loads. */}
        <HistoryPane view={view} request={viewReq ?? req} sessionKey={req.key} />
        <PaneHandle
          pane="history"
          label="history"
          measure={() => columns.current?.querySelector('.history-pane') ?? null}
        />
        {compareOpen ? (
          <CompareView a={view} reqA={req} />
        ) : (
          <ProjectedPane view={projected.view ?? view} request={projected.req ?? viewReq ?? req} />
        )}
        <LinkLines root={columns} />
      </div>
    </section>
  );
}

/**
 * The view the projected pane shows: the History's, one render later. A new view then draws the
 * History in one commit and the projected pane in the next, each its own task (a commit lays out
 * what it drew: both at once was a task over 50 ms). The first view (a session opened, a page
 * reloaded) replaces no panes: both come in one commit, one layout and paint sooner.
 */
export function useProjectedAfterHistory(
  view: LeafView | null,
  req: LeafRequest | null,
): { view: LeafView | null; req: LeafRequest | null } {
  const [shown, setShown] = useState({ view, req });
  useEffect(() => {
    if (shown.view !== view) startTransition(() => setShown({ view, req }));
  }, [shown.view, view, req]);
  // Nothing drawn yet: the first view's two panes come in one commit.
  return shown.view ? shown : { view, req };
}
