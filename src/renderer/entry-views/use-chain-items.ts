import { useEffect, useState } from 'react';
import type { ChainItem } from '../../shared/api';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { useAppStore } from '../store/app-store';

/** Items of the selected leaf's chain an entry view links to, fetched once (a bounded window). */
export interface ChainWindow {
  items: ChainItem[] | null;
  error: string | null;
}

/**
 * A window of the shown leaf's chain: `count` positions from `start`, only `kinds` when
 * given. The answer is bounded by `count` (at most MAX_CHAIN_ITEMS), whatever the chain's length.
 */
export function useChainItems(start: number, count: number, kinds?: string[]): ChainWindow {
  const api = useApi();
  const req = useAppStore((s) => s.leafViewRequest);
  const [state, setState] = useState<ChainWindow>({ items: null, error: null });
  const kindKey = kinds?.join(',') ?? '';
  useEffect(() => {
    if (!req) return;
    let live = true;
    const k = kindKey ? kindKey.split(',') : undefined;
    api.getChainItems({ ...req, start: Math.max(0, start), count, ...(k ? { kinds: k } : {}) }).then(
      (r) => live && setState({ items: r.items, error: null }),
      (e: unknown) => live && setState({ items: null, error: describeError(e) }),
    );
    return () => {
      live = false;
    };
  }, [api, req, start, count, kindKey]);
  return state;
}
