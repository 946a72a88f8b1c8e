import { useEffect } from 'react';
import type { Api } from '../../shared/api';
import { useAppStore } from '../store/app-store';
import { jumpToEntry } from '../tree/tree-nav';
import { SessionController } from './session-controller';

/** Turning follow on selects the newest leaf at once (appends then keep it selected). */
export function useFollow(api: Api): void {
  const follow = useAppStore((s) => s.follow);
  const activeLeaf = useAppStore((s) => s.sessionInfo?.activeLeaf ?? null);
  useEffect(() => {
    if (follow && activeLeaf) void jumpToEntry(api, activeLeaf);
  }, [api, follow, activeLeaf]);
}

/** Opens the selected session and applies its live events, in order (session-controller.ts). */
export function useSession(api: Api): void {
  const key = useAppStore((s) => s.sessionKey);
  useEffect(() => {
    if (!key) return;
    const c = new SessionController(api, key, useAppStore.getState);
    c.start();
    return () => c.stop();
  }, [api, key]);
}
