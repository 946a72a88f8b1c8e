import { useEffect } from 'react';
import type { Api, ApiEvent } from '../../shared/api';
import { describeError } from '../api/api-methods';
import { useAppStore } from '../store/app-store';
import { subscribeUntilStopped } from './subscription';

/** Loads the home and its sessions, and keeps the list live through the library subscription. */
export function useLibrary(api: Api, ready: () => void): void {
  useEffect(() => {
    let live = true;
    const set = useAppStore.getState().set;
    const off = api.onEvent((e: ApiEvent) => {
      if (e.type !== 'library') return;
      const removed = new Set(e.removed);
      const changed = new Map(e.changed.map((s) => [s.key, s]));
      const cur = useAppStore.getState().sessions.filter((s) => !removed.has(s.key));
      const next = cur.map((s) => changed.get(s.key) ?? s);
      for (const s of e.changed) if (!cur.some((c) => c.key === s.key)) next.push(s);
      set({ sessions: next });
    });
    ready();
    Promise.all([api.getHome({}), api.listSessions({})]).then(
      ([home, sessions]) => live && set({ home, sessions, libraryError: null }),
      (e: unknown) => live && set({ libraryError: describeError(e) }),
    );
    const unsubscribe = subscribeUntilStopped(api, { topic: 'library' });
    return () => {
      live = false;
      off();
      unsubscribe();
    };
  }, [api, ready]);
}
