import { useEffect, useMemo, useState } from 'react';
import type { EntryFate } from '../../shared/api-features';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { useAppStore } from '../store/app-store';

export interface FateState {
  /** The entry asked about: the History entry pinned alone (null: none). */
  entry: string | null;
  fate: EntryFate | null;
  /** Plan B's fate, when compare is open in plan mode. */
  fateB: EntryFate | null;
  error: string | null;
  loading: boolean;
}

interface Loaded {
  sig: string;
  fate: EntryFate | null;
  fateB: EntryFate | null;
  error: string | null;
}

/** The pinned History entry's fate on the selected leaf's chain, under plan A (and B when comparing plans). */
export function useEntryFate(open: boolean): FateState {
  const api = useApi();
  const key = useAppStore((s) => s.sessionKey);
  const leaf = useAppStore((s) => s.leaf);
  const plan = useAppStore((s) => s.plan);
  const profile = useAppStore((s) => s.profile);
  const overrides = useAppStore((s) => s.overrides);
  const compare = useAppStore((s) => s.compare);
  // A single entry pinned from the History (a click on its id, or Enter on it).
  const entry = useAppStore((s) =>
    s.pinned && !s.pinned.fromMessage && s.pinned.entries.length === 1 ? s.pinned.entries[0] : null,
  );
  const withB = compare.open && compare.mode === 'plan';
  const { planB, overridesB } = compare;
  const profileB = compare.profileB ?? profile;
  const sig = useMemo(
    () => JSON.stringify([key, leaf, entry, plan, profile, overrides, withB && [planB, profileB, overridesB]]),
    [key, leaf, entry, plan, profile, overrides, withB, planB, profileB, overridesB],
  );
  const [state, setState] = useState<Loaded>({ sig: '', fate: null, fateB: null, error: null });

  useEffect(() => {
    if (!open || !key || entry === null) return;
    // Superseded (another entry, leaf, plan…): cancelled in the backend, where a first fate scans every turn.
    const abort = new AbortController();
    const opts = { signal: abort.signal };
    const req = { key, leaf, plan, profile, overrides, entry };
    const a = api.getEntryFate(req, opts);
    const b = withB
      ? api.getEntryFate({ ...req, plan: planB, profile: profileB, overrides: overridesB }, opts)
      : Promise.resolve(null);
    Promise.all([a, b]).then(
      ([fate, fateB]) => !abort.signal.aborted && setState({ sig, fate, fateB, error: null }),
      (e: unknown) => !abort.signal.aborted && setState({ sig, fate: null, fateB: null, error: describeError(e) }),
    );
    return () => abort.abort();
  }, [api, open, key, leaf, entry, plan, profile, overrides, withB, planB, profileB, overridesB, sig]);

  const current = state.sig === sig;
  return {
    entry,
    fate: current ? state.fate : null,
    fateB: current ? state.fateB : null,
    error: current ? state.error : null,
    loading: open && entry !== null && !current,
  };
}
