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

/** Keeps `leafView` in the store in step with the selection; stale answers are dropped. */
export function useLeafViewLoader(): void {
  const api = useApi();
  const req = useLeafRequest();
  const info = useAppStore((s) => s.sessionInfo);
  const treeVersion = useAppStore((s) => s.treeVersion);
  useEffect(() => {
    if (!req || !info) return;
    let live = true;
    const st = useAppStore.getState;
    st().leafLoadStarted();
    api.getLeafView(req).then(
      (v) => live && st().leafLoaded(v, req),
      (e: unknown) => live && st().leafFailed(describeError(e)),
    );
    return () => {
      live = false;
    };
    // treeVersion: a live append can change the view (always when the leaf is the active one).
  }, [api, req, info, treeVersion]);
}
