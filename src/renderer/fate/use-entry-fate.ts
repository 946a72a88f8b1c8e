import { useEffect, useMemo, useState } from 'react';
import type { Api } from '../../shared/api';
import type { EntryFate, EntryFateRequest } from '../../shared/api-features';
import { useApi } from '../api/api-context';
import { describeError, errorParts } from '../api/api-methods';
import { useAppStore } from '../store/app-store';
import type { AppState } from '../store/types';

/** Side B of a comparison, as the strip draws it. */
export interface FateB {
  /** 'plan': plan B on A's leaf; 'leaf': B's plan on B's own leaf. */
  mode: 'plan' | 'leaf';
  /** B's leaf (null: the active leaf). */
  leaf: string | null;
  fate: EntryFate | null;
  /** Leaf mode: the pinned entry is not on B's leaf's chain, so it never reaches B's model. */
  offChain: boolean;
}

export interface FateState {
  /** The entry asked about: the History entry pinned alone (null: none). */
  entry: string | null;
  fate: EntryFate | null;
  /** Side B's fate, when compare is open (null otherwise, or while asked). */
  b: FateB | null;
  error: string | null;
  loading: boolean;
}

interface Loaded {
  sig: string;
  fate: EntryFate | null;
  b: FateB | null;
  error: string | null;
}

/**
 * What makes a leaf's chain change without the selection changing: a reload of the session, and
 * (for the active leaf, `leaf` null) every append. An explicit leaf's chain is fixed (append-only).
 * While a first read is under way the fate waits for it, so its steps are no appends.
 */
const revisionOf = (s: AppState, leaf: string | null): string =>
  `${s.treeVersion}/${leaf !== null ? '' : s.sessionInfo?.reading ? 'reading' : s.appendVersion}`;

/** Side B's fate; in leaf mode an entry not on B's chain is a note, not an error. */
async function fateOfB(api: Api, req: EntryFateRequest, mode: 'plan' | 'leaf', signal: AbortSignal): Promise<FateB> {
  try {
    return { mode, leaf: req.leaf, fate: await api.getEntryFate(req, { signal }), offChain: false };
  } catch (e) {
    const { code, message } = errorParts(e);
    if (mode === 'leaf' && code === 'bad_request' && message.includes('is not on the chain')) {
      return { mode, leaf: req.leaf, fate: null, offChain: true };
    }
    throw e;
  }
}

/** A single entry pinned from the History (a click on its id, or Enter on it). */
const historyPin = (s: AppState): string | null =>
  s.pinned && !s.pinned.fromMessage && s.pinned.entries.length === 1 ? s.pinned.entries[0] : null;

/**
 * The entry asked about: the History pin, kept while follow mode moves the selection to each new
 * leaf (a leaf selection unpins, but the new leaf's chain grows the one the entry was pinned on).
 */
function useFollowedEntry(): string | null {
  const pinned = useAppStore(historyPin);
  const [kept, setKept] = useState<string | null>(null);
  useEffect(
    () =>
      useAppStore.subscribe((s, prev) => {
        if (s.pinned === prev.pinned && s.leaf === prev.leaf && s.sessionKey === prev.sessionKey) return;
        // Follow's own leaf selection unpins: the entry pinned (or kept) before it stays asked about.
        const followed = s.follow && s.pinned === null && s.leaf !== prev.leaf && s.sessionKey === prev.sessionKey;
        setKept((k) => (followed ? (historyPin(prev) ?? k) : null));
      }),
    [],
  );
  return pinned ?? kept;
}

/** The pinned History entry's fate on the selected leaf's chain, and on side B's when comparing. */
export function useEntryFate(open: boolean): FateState {
  const api = useApi();
  const key = useAppStore((s) => s.sessionKey);
  const leaf = useAppStore((s) => s.leaf);
  const plan = useAppStore((s) => s.plan);
  const profile = useAppStore((s) => s.profile);
  const overrides = useAppStore((s) => s.overrides);
  const compare = useAppStore((s) => s.compare);
  const entry = useFollowedEntry();
  const modeB = compare.open ? compare.mode : null;
  const leafB = modeB === 'leaf' ? compare.leafB : leaf;
  const { planB, overridesB } = compare;
  const profileB = compare.profileB ?? profile;
  const revA = useAppStore((s) => revisionOf(s, leaf));
  const revB = useAppStore((s) => (modeB ? revisionOf(s, leafB) : ''));
  const sig = useMemo(
    () =>
      JSON.stringify([
        key,
        leaf,
        revA,
        entry,
        plan,
        profile,
        overrides,
        modeB && [modeB, leafB, revB, planB, profileB, overridesB],
      ]),
    [key, leaf, revA, entry, plan, profile, overrides, modeB, leafB, revB, planB, profileB, overridesB],
  );
  const [state, setState] = useState<Loaded>({ sig: '', fate: null, b: null, error: null });

  useEffect(() => {
    if (!open || !key || entry === null) return;
    // Superseded (another entry, leaf, plan, an append…): cancelled in the backend, where a first fate scans every turn.
    const abort = new AbortController();
    const req = { key, leaf, plan, profile, overrides, entry };
    const a = api.getEntryFate(req, { signal: abort.signal });
    const b = modeB
      ? fateOfB(
          api,
          { ...req, leaf: leafB, plan: planB, profile: profileB, overrides: overridesB },
          modeB,
          abort.signal,
        )
      : Promise.resolve(null);
    Promise.all([a, b]).then(
      ([fate, fateB]) => !abort.signal.aborted && setState({ sig, fate, b: fateB, error: null }),
      (e: unknown) => !abort.signal.aborted && setState({ sig, fate: null, b: null, error: describeError(e) }),
    );
    return () => abort.abort();
    // `sig` stands for the revisions: they only say when to ask again.
  }, [api, open, key, leaf, entry, plan, profile, overrides, modeB, leafB, planB, profileB, overridesB, sig]);

  const current = state.sig === sig;
  return {
    entry,
    fate: current ? state.fate : null,
    b: current ? state.b : null,
    error: current ? state.error : null,
    loading: open && entry !== null && !current,
  };
}
