import { useEffect, useMemo } from 'react';
import type { LeafRequest } from '../../shared/api';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { useAppStore } from '../store/app-store';

/** The request for the main selection (side A). */
export function useLeafRequest(): LeafRequest | null {
  const key = useAppStore((s) => s.sessionKey);
  const leaf = useAppStore((s) => s.leaf);
  const plan = useAppStore((s) => s.plan);
  const profile = useAppStore((s) => s.profile);
  const overrides = useAppStore((s) => s.overrides);
  return useMemo(() => (key ? { key, leaf, plan, profile, overrides } : null), [key, leaf, plan, profile, overrides]);
}

/**
 * Keeps `leafView` in the store in step with the selection. A request that a newer selection
 * replaces is aborted (the client's AbortSignal: the backend drops or stops its work),
 * and its answer, should one still come, is dropped. The projected pane comes paged (its first
 * screen only) except while comparing: the comparison reads both projections whole.
 */
export function useLeafViewLoader(): void {
  const api = useApi();
  const req = useLeafRequest();
  const hasInfo = useAppStore((s) => s.sessionInfo !== null);
  const treeVersion = useAppStore((s) => s.treeVersion);
  // An append changes only the active leaf's view (other leaves' chains never change): that one is asked again.
  // The active leaf follows appends; not the steps of a first read (its end brings a new treeVersion).
  const appendVersion = useAppStore((s) => (s.leaf === null && !s.sessionInfo?.reading ? s.appendVersion : 0));
  const paged = useAppStore((s) => !s.compare.open);
  useEffect(() => {
    if (!req || !hasInfo) return;
    const abort = new AbortController();
    const st = useAppStore.getState;
    st().leafLoadStarted();
    api.getLeafView({ ...req, pagedMessages: paged }, { signal: abort.signal }).then(
      (v) => !abort.signal.aborted && st().leafLoaded(v, req),
      (e: unknown) => !abort.signal.aborted && st().leafFailed(describeError(e)),
    );
    return () => abort.abort();
    // treeVersion: a live append can change the view (always when the leaf is the active one).
  }, [api, req, hasInfo, treeVersion, appendVersion, paged]);
}
