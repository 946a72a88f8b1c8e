import { useEffect, useMemo } from 'react';
import type { LeafRequest } from '../../shared/api';
import { useApi } from '../api/api-context';
import { useAppStore } from '../store/app-store';
import { startLeafLoader } from './leaf-loader';

/** The request for the main selection (side A). */
export function useLeafRequest(): LeafRequest | null {
  const key = useAppStore((s) => s.sessionKey);
  const leaf = useAppStore((s) => s.leaf);
  const plan = useAppStore((s) => s.plan);
  const profile = useAppStore((s) => s.profile);
  const overrides = useAppStore((s) => s.overrides);
  return useMemo(() => (key ? { key, leaf, plan, profile, overrides } : null), [key, leaf, plan, profile, overrides]);
}

/** Keeps `leafView` in the store in step with the selection (leaf-loader.ts). */
export function useLeafViewLoader(): void {
  const api = useApi();
  useEffect(() => startLeafLoader(api, useAppStore), [api]);
}
