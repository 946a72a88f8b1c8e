import { useEffect, useMemo, useState } from 'react';
import type { LeafRequest, LeafView } from '../../shared/api';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { ProjectedPane } from '../leaf/projected-pane';
import { useAppStore } from '../store/app-store';
import { CompareTable } from './compare-table';
import { DiffView } from './diff-view';

/** Side B of a comparison: the same leaf under another plan, or another leaf under the same plan. */
export function CompareView({ a, reqA }: { a: LeafView; reqA: LeafRequest }) {
  const api = useApi();
  const compare = useAppStore((s) => s.compare);
  const setCompareMode = useAppStore((s) => s.setCompareMode);
  const setPlanB = useAppStore((s) => s.setPlanB);
  const setLeafB = useAppStore((s) => s.setLeafB);
  const toggleDiff = useAppStore((s) => s.toggleDiff);
  const toggleCompare = useAppStore((s) => s.toggleCompare);
  const treeVersion = useAppStore((s) => s.treeVersion);
  const [b, setB] = useState<LeafView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reqB: LeafRequest = useMemo(
    () =>
      compare.mode === 'plan'
        ? { ...reqA, leaf: a.leaf, plan: compare.planB, overrides: compare.overridesB }
        : { ...reqA, leaf: compare.leafB ?? null },
    [compare.mode, compare.planB, compare.overridesB, compare.leafB, reqA, a.leaf],
  );
  useEffect(() => {
    let live = true;
    api.getLeafView(reqB).then(
      (v) => {
        if (!live) return;
        setB(v);
        setError(null);
      },
      (e: unknown) => live && setError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [api, reqB, treeVersion]);

  const labelA = compare.mode === 'plan' ? `plan ${reqA.plan}` : `leaf ${a.leaf}`;
  const labelB = compare.mode === 'plan' ? `plan ${compare.planB}` : `leaf ${b?.leaf ?? '…'}`;

  return (
    <section className="compare" aria-label="Compare">
      <header className="compare-controls">
        <b>Compare</b>
        <label>
          <input
            type="radio"
            name="cmp-mode"
            checked={compare.mode === 'plan'}
            onChange={() => setCompareMode('plan')}
          />{' '}
          two plans
        </label>
        <label>
          <input
            type="radio"
            name="cmp-mode"
            checked={compare.mode === 'leaf'}
            onChange={() => setCompareMode('leaf', a.leaf)}
          />{' '}
          two leaves
        </label>
        {compare.mode === 'plan' ? (
          <label>
            B plan{' '}
            <select
              aria-label="Plan B"
              value={compare.planB}
              onChange={(e) => setPlanB(e.target.value === 'auto' ? 'auto' : 'none')}
            >
              <option value="none">none</option>
              <option value="auto">auto</option>
            </select>
          </label>
        ) : (
          <button
            type="button"
            onClick={() => setLeafB(a.leaf)}
            title="Side B takes the selected leaf; then select another leaf for A"
          >
            B ← selected leaf ({a.leaf})
          </button>
        )}
        <label>
          <input type="checkbox" checked={compare.diff} onChange={(e) => toggleDiff(e.target.checked)} /> text diff
        </label>
        <button type="button" onClick={() => toggleCompare(false)} aria-label="Close compare">
          ✕
        </button>
      </header>
      {error && <p className="error">{error}</p>}
      {b && <CompareTable a={a.projection} b={b.projection} labelA={labelA} labelB={labelB} />}
      {b && compare.diff && <DiffView a={a.projection} b={b.projection} />}
      {b && !compare.diff && (
        <div className="compare-panes">
          <ProjectedPane view={a} request={reqA} title={`A · ${labelA}`} />
          <ProjectedPane view={b} request={reqB} title={`B · ${labelB}`} />
        </div>
      )}
    </section>
  );
}
