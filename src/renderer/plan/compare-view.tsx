import { useEffect, useMemo, useState } from 'react';
import type { LeafRequest, LeafView } from '../../shared/api';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { ProjectedPane } from '../leaf/projected-pane';
import { useAppStore } from '../store/app-store';
import { shortId } from '../util/format';
import { compareLabels } from './compare-labels';
import { CompareTable } from './compare-table';
import './compare.css';
import { DiffView } from './diff-view';
import { ProfileEditor } from './profile-editor';
import { TurnOverrides } from './turn-overrides';

/**
 * Compare: side A is the main selection (leaf, plan, profile, overrides); side B has its own
 * plan, CapacityProfile and overrides, on A's leaf ("two plans") or on a leaf of its own ("two leaves").
 */
export function CompareView({ a, reqA }: { a: LeafView; reqA: LeafRequest }) {
  const api = useApi();
  const compare = useAppStore((s) => s.compare);
  const setCompareMode = useAppStore((s) => s.setCompareMode);
  const setPlanB = useAppStore((s) => s.setPlanB);
  const setProfileB = useAppStore((s) => s.setProfileB);
  const setOverrideB = useAppStore((s) => s.setOverrideB);
  const clearOverridesB = useAppStore((s) => s.clearOverridesB);
  const setLeafB = useAppStore((s) => s.setLeafB);
  const toggleDiff = useAppStore((s) => s.toggleDiff);
  const toggleCompare = useAppStore((s) => s.toggleCompare);
  const treeVersion = useAppStore((s) => s.treeVersion);
  // Side B on the active leaf (leaf null) follows appends as side A does.
  const bAppends = useAppStore((s) => (compare.mode === 'leaf' && compare.leafB === null ? s.appendVersion : 0));
  // B's view with the request it answers (its plan rows are read with that one).
  const [answered, setB] = useState<{ view: LeafView; req: LeafRequest } | null>(null);
  const b = answered?.view ?? null;
  const [error, setError] = useState<string | null>(null);
  const [overridesOpen, setOverridesOpen] = useState(false);
  const profileB = compare.profileB ?? reqA.profile;
  const reqB: LeafRequest = useMemo(
    () => ({
      key: reqA.key,
      leaf: compare.mode === 'plan' ? a.leaf : compare.leafB,
      plan: compare.planB,
      profile: profileB,
      overrides: compare.overridesB,
    }),
    [compare.mode, compare.planB, compare.overridesB, compare.leafB, profileB, reqA.key, a.leaf],
  );
  useEffect(() => {
    let live = true;
    api.getLeafView(reqB).then(
      (v) => {
        if (!live) return;
        setB({ view: v, req: reqB });
        setError(null);
      },
      (e: unknown) => live && setError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [api, reqB, treeVersion, bAppends]);

  // B's view answers an older request while a new one is on its way: label it by what it shows.
  const labels = compareLabels(
    { leaf: a.leaf, plan: reqA.plan, profile: reqA.profile, overrides: reqA.overrides },
    { leaf: b?.leaf ?? a.leaf, plan: reqB.plan, profile: reqB.profile, overrides: reqB.overrides },
  );
  const nOverridesB = Object.keys(compare.overridesB).length;

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
        <label>
          <input type="checkbox" checked={compare.diff} onChange={(e) => toggleDiff(e.target.checked)} /> text diff
        </label>
        <button type="button" className="compare-close" onClick={() => toggleCompare(false)} aria-label="Close compare">
          ✕
        </button>
      </header>
      <div className="compare-side-b" role="group" aria-label="Side B">
        <b className="side-tag side-b">B</b>
        {compare.mode === 'leaf' && (
          <button
            type="button"
            onClick={() => setLeafB(a.leaf)}
            title="Side B takes the leaf A shows; then select another leaf for A in the tree"
          >
            B ← A&apos;s leaf ({shortId(a.leaf)})
          </button>
        )}
        <label>
          plan{' '}
          <select
            aria-label="Plan B"
            value={compare.planB}
            onChange={(e) => setPlanB(e.target.value === 'auto' ? 'auto' : 'none')}
          >
            <option value="none">none</option>
            <option value="auto">auto</option>
          </select>
        </label>
        <ProfileEditor value={profileB} onCommit={setProfileB} labelPrefix="B " />
        {compare.profileB && (
          <button
            type="button"
            onClick={() => setProfileB(null)}
            title="Side B uses A's window, reserve and bytes/token"
          >
            = A&apos;s profile
          </button>
        )}
        <button
          type="button"
          aria-expanded={overridesOpen}
          aria-controls="compare-b-overrides"
          onClick={() => setOverridesOpen((o) => !o)}
        >
          B overrides{nOverridesB > 0 ? ` (${nOverridesB})` : ''} {overridesOpen ? '▾' : '▸'}
        </button>
      </div>
      <p className="compare-labels">
        <span className="side-tag side-a">A</span> {labels.a} <span className="dim">vs</span>{' '}
        <span className="side-tag side-b">B</span> {labels.b}
        {labels.same && <span className="dim"> (nothing differs yet: change B above)</span>}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {overridesOpen && b && (
        <div className="compare-b-overrides" id="compare-b-overrides">
          <TurnOverrides
            view={b}
            request={answered?.req ?? reqB}
            overrides={compare.overridesB}
            onOverride={setOverrideB}
            onClear={clearOverridesB}
            labelPrefix="B "
          />
        </div>
      )}
      {b && <CompareTable a={a.projection} b={b.projection} labelA={labels.a} labelB={labels.b} />}
      {/* A diff needs A's messages whole: until A's view for the comparison comes (the main view is
          paged, its messages empty), a diff would show every message of B as added. */}
      {b &&
        compare.diff &&
        (a.projection.messages.length === a.messageCount ? (
          <DiffView a={a.projection} b={b.projection} />
        ) : (
          <p className="dim">diffing…</p>
        ))}
      {b && !compare.diff && (
        <div className="compare-panes">
          <ProjectedPane view={a} request={reqA} title={`A · ${labels.a}`} />
          <ProjectedPane view={b} request={reqB} title={`B · ${labels.b}`} />
        </div>
      )}
    </section>
  );
}
