import { useEffect } from 'react';
import type { Api } from '../../shared/api';
import { useAppStore, type AppState } from '../store/app-store';
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
  useEffect(() => startSessionLoader(api, useAppStore), [api]);
}

/**
 * Keeps one SessionController running for the selected session, outside React: the store tells
 * it of a new selection as it is made, so the session's open leaves in the task that chose it (a
 * click in the library, the URL applied at start), not after a render of the whole app and its
 * effects. Returns what stops it.
 */
export function startSessionLoader(
  api: Api,
  store: { getState(): AppState; subscribe(listener: () => void): () => void },
): () => void {
  let running: SessionController | null = null;
  let stopped = false;
  const check = (): void => {
    const key = store.getState().sessionKey;
    if (stopped || (running?.key ?? null) === key) return;
    running?.stop();
    running = key ? new SessionController(api, key, store.getState) : null;
    running?.start();
  };
  // The controller's start writes to the store: after this change has reached every listener.
  const off = store.subscribe(() => queueMicrotask(check));
  check();
  return () => {
    stopped = true;
    off();
    running?.stop();
  };
}
