import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { ApiEvent, LeafRequest } from '../../shared/api';
import type { ContextSeries } from '../../shared/api-series';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { wholeSeries } from '../../shared/series-delta';
import { unpackSeries } from '../../shared/series-packed';
import { useAppStore } from '../store/app-store';
import { panesBehind } from '../store/leaf-slice';
import { afterPaint } from '../util/after-paint';

/** Live appends arrive in bursts: one re-fetch per quiet moment. */
const LIVE_DEBOUNCE_MS = 300;

interface Loaded {
  /** The request the answer is for (see `sig`). */
  sig: string;
  series: ContextSeries | null;
  seriesB: ContextSeries | null;
  error: string | null;
}

/**
 * Past this many entries the chart is drawn on request, not on open: its first series reads every
 * entry of the chain, seconds of work at that size. The worker answers other calls between its
 * steps (main/api/in-steps.ts), but more slowly: drawn on open, it would slow a big session's first
 * clicks and keys (cost follows what is on screen).
 */
export const SERIES_ON_REQUEST_ENTRIES = 200_000;

export interface SeriesState {
  /** The session is big enough that the chart waits to be asked (`draw`). */
  deferred: boolean;
  draw: () => void;
  series: ContextSeries | null;
  /** Side B of a plan comparison (same chain, plan B), when compare is open in plan mode. */
  seriesB: ContextSeries | null;
  error: string | null;
  loading: boolean;
  /** While loading: how far the backend's build of the series asked has come (0–1), once it says. */
  progress: number | null;
}

/**
 * The leaf whose chain the chart draws: the active leaf (null) until a leaf off its chain is
 * selected. Selecting a point of the chart, or any entry on the drawn chain, keeps the chart
 * as it is (the cursor moves); selecting elsewhere redraws the chain through that leaf.
 */
function useChartLeaf(drawn: ContextSeries | null): string | null {
  const api = useApi();
  const key = useAppStore((s) => s.sessionKey);
  const selected = useAppStore((s) => s.leaf);
  const view = useAppStore((s) => s.leafView);
  const req = useAppStore((s) => s.leafViewRequest);
  // Asked once the panes have drawn the view (its answer can redraw the chart mid-render).
  const behind = useAppStore(panesBehind);
  const [chart, setChart] = useState<{ key: string | null; leaf: string | null }>({ key, leaf: null });
  // Another session, or the active leaf selected again: the chart draws the active chain.
  if (chart.key !== key || (selected === null && chart.leaf !== null)) setChart({ key, leaf: null });

  useEffect(() => {
    if (selected === null || behind) return;
    if (!key || !view || view.leaf !== selected || !req) return;
    // A column of the chart was chosen (or an entry it draws): nothing to ask.
    if (drawn?.points.some((p) => p.leaf === selected)) return;
    let live = true;
    const pos = view.chainLength - 1;
    // One chain item of the drawn chain at the selected entry's position: the same id means
    // the selected entry lies on the drawn chain.
    api
      .getChainItems({ ...req, leaf: chart.leaf, start: pos, count: 1 })
      .then(
        (r) => r.items[0]?.id === selected,
        () => false,
      )
      .then((onChain) => {
        if (live && !onChain) setChart((c) => ({ ...c, leaf: selected }));
      });
    return () => {
      live = false;
    };
    // Only a new selection asks; the chart's own leaf changing must not ask again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, key, selected, view, behind]);
  return chart.leaf;
}

/** Fetches the context series of the drawn chain (and of plan B when comparing plans), live. */
export function useContextSeries(open: boolean): SeriesState {
  const api = useApi();
  const key = useAppStore((s) => s.sessionKey);
  const plan = useAppStore((s) => s.plan);
  const profile = useAppStore((s) => s.profile);
  const overrides = useAppStore((s) => s.overrides);
  const compare = useAppStore((s) => s.compare);
  const [version, setVersion] = useState(0);
  // A session still read in steps (SessionInfo.reading) has no whole chain to draw yet: the
  // series is asked once it is read (asking earlier would read the rest at once).
  // It is also asked only once the session's first leaf view has answered: the series is the
  // open's biggest answer, and asked beside the tree's first rows and the leaf view it would hold
  // the backend (and then the page) while they wait; the chart is drawn right after them instead.
  const ready = useAppStore(
    (s) =>
      s.sessionInfo !== null &&
      s.sessionInfo.reading === null &&
      ((s.leafView !== null && s.leafViewRequest?.key === s.sessionKey) || s.leafError !== null),
  );
  // And only once that view's panes are painted: the series' build (the backend's biggest work of an
  // open) and its answer then never share the cores with the panes' first commit. The panes draw a
  // new view as a deferred render (leaf-panes.tsx); a value deferred here commits with it.
  const drawnReady = useDeferredValue(ready);
  const [paintedFor, setPaintedFor] = useState<string | null>(null);
  useEffect(() => {
    if (!drawnReady || !key || paintedFor === key) return;
    return afterPaint(() => setPaintedFor(key));
  }, [drawnReady, key, paintedFor]);
  const shown = ready && paintedFor === key;
  const big = useAppStore((s) => (s.sessionInfo?.entryCount ?? 0) > SERIES_ON_REQUEST_ENTRIES);
  const [asked, setAsked] = useState<string | null>(null);
  const deferred = big && asked !== key;
  const [state, setState] = useState<Loaded>({ sig: '', series: null, seriesB: null, error: null });
  // The series drawn now, read when the next one is asked: the answer then sends only the points
  // after those it keeps of it (a click on another branch keeps those before the fork).
  // (Set in an effect declared before the one that asks: it runs first after the same commit.)
  const drawn = useRef(state);
  useEffect(() => {
    drawn.current = state;
  }, [state]);
  const leaf = useChartLeaf(state.series);
  const withB = compare.open && compare.mode === 'plan';
  const { planB, overridesB } = compare;
  const profileB = compare.profileB ?? profile;
  // What the drawn series answers: loading while it differs from the one asked for.
  const sig = useMemo(
    () => JSON.stringify([key, leaf, plan, profile, overrides, withB && [planB, profileB, overridesB], version]),
    [key, leaf, plan, profile, overrides, withB, planB, profileB, overridesB, version],
  );

  // How far the build of the series asked last has come, as the backend tells it (seriesProgress,
  // sent only while a build lasts long enough to be seen): kept with the request it is about.
  const askedSig = useRef('');
  const [progress, setProgress] = useState<{ sig: string; part: number } | null>(null);
  useEffect(() => {
    if (!key || !open) return;
    return api.onEvent((e: ApiEvent) => {
      if (e.type === 'seriesProgress' && e.key === key && e.total > 0)
        setProgress({ sig: askedSig.current, part: Math.min(1, e.done / e.total) });
    });
  }, [api, key, open]);

  // A live append (or a reload) re-fetches, once per burst; a hash check changes no context, and
  // neither do a first read's steps (the series is first asked once that read has ended).
  useEffect(() => {
    if (!key || !open) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = api.onEvent((e: ApiEvent) => {
      if (e.type !== 'session' || e.key !== key || e.change === 'removed' || e.change === 'checked') return;
      if (e.reading !== undefined) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => setVersion((v) => v + 1), LIVE_DEBOUNCE_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [api, key, open]);

  useEffect(() => {
    if (!key || !open || !shown || deferred) return;
    askedSig.current = sig;
    // A series superseded (another leaf, plan, window…) is cancelled in the backend, not only
    // ignored here: a big session's first one is seconds of work there.
    const abort = new AbortController();
    const opts = { signal: abort.signal };
    const req: Omit<LeafRequest, 'overrides'> & { overrides: LeafRequest['overrides'] } = {
      key,
      leaf,
      plan,
      profile,
      overrides,
    };
    const { series: heldA, seriesB: heldB } = drawn.current;
    const a = wholeSeries(heldA, (held) => api.getContextSeries({ ...req, held }, opts).then(unpackSeries));
    const reqB = { ...req, plan: planB, profile: profileB, overrides: overridesB };
    const b = withB
      ? wholeSeries(heldB, (held) => api.getContextSeries({ ...reqB, held }, opts).then(unpackSeries))
      : Promise.resolve(null);
    Promise.all([a, b]).then(
      ([series, seriesB]) => !abort.signal.aborted && setState({ sig, series, seriesB, error: null }),
      (e: unknown) => !abort.signal.aborted && setState((s) => ({ ...s, sig, error: describeError(e) })),
    );
    return () => abort.abort();
  }, [
    api,
    key,
    open,
    shown,
    deferred,
    leaf,
    plan,
    profile,
    overrides,
    withB,
    planB,
    profileB,
    overridesB,
    version,
    sig,
  ]);

  // Another session: nothing of the previous one is drawn.
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    setShownKey(key);
    setState({ sig: '', series: null, seriesB: null, error: null });
  }
  const loading = !deferred && state.sig !== sig;
  return {
    deferred,
    draw: () => setAsked(key),
    series: state.series,
    seriesB: state.seriesB,
    error: state.error,
    loading,
    progress: loading && progress?.sig === sig ? progress.part : null,
  };
}
