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
  const set = useAppStore((s) => s.set);
  useEffect(() => {
    if (!req || !info) return;
    let live = true;
    set({ leafLoading: true });
    api.getLeafView(req).then(
      (v) => live && set({ leafView: v, leafViewRequest: req, leafLoading: false, leafError: null }),
      (e: unknown) => live && set({ leafLoading: false, leafError: describeError(e) }),
    );
    return () => {
      live = false;
    };
    // treeVersion: a live append can change the view (always when the leaf is the active one).
  }, [api, req, info, treeVersion, set]);
}
