import { useDeferredValue, useEffect, useRef } from 'react';
import { ExportMenu } from './export/export-menu';
import { PaneHandle } from './layout/pane-handle';
import { UnknownLeaf, useUnknownLeaf } from './layout/unknown-leaf';
import { useAppStore } from './store/app-store';
import { shortId, timeOfDay } from './util/format';
import { HistoryPane } from './leaf/history-pane';
import { LinkLines } from './leaf/link-lines';
import { ProjectedPane } from './leaf/projected-pane';
import { useLeafRequest } from './leaf/use-leaf-view';
import { lazyPart } from './util/lazy-parts';

/** The comparison's own chunk (util/lazy-parts.tsx): a first screen shows the projected pane. */
const CompareView = lazyPart(
  () => import('./plan/compare-view'),
  (m: typeof import('./plan/compare-view')) => m.CompareView,
);

/** The right region: History ∥ Projected context for the selected leaf, or the comparison. */
export function LeafPanes() {
  // A new view is drawn as a deferred (concurrent) render: React draws both panes in slices that
  // yield to the browser, instead of one task that blocks it, and commits them together (one
  // layout, one paint: the panes never show two leaves). Until it is committed the panes show
  // the previous view, as while it loads.
  const latest = useAppStore((s) => s.leafView);
  const view = useDeferredValue(latest);
  const viewReq = useDeferredValue(useAppStore((s) => s.leafViewRequest));
  const error = useAppStore((s) => s.leafError);
  const loading = useAppStore((s) => s.leafLoading);
  const reading = useAppStore((s) => s.sessionInfo?.reading != null);
  const compareOpen = useAppStore((s) => s.compare.open);
  const columns = useRef<HTMLDivElement>(null);
  const req = useLeafRequest();
  // Runs after the commit that draws `view` in both panes: what waits for them (`panesBehind`) goes.
  const panesDrew = useAppStore((s) => s.panesDrew);
  useEffect(() => panesDrew(view), [panesDrew, view]);
  useEffect(() => () => panesDrew(null), [panesDrew]);
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
    <section className="leaf-panes" aria-busy={loading || view !== latest} data-leaf-id={view.leaf}>
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
        {compareOpen ? <CompareView a={view} reqA={req} /> : <ProjectedPane view={view} request={viewReq ?? req} />}
        <LinkLines root={columns} />
      </div>
    </section>
  );
}
