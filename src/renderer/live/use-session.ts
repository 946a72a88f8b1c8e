import { useEffect } from 'react';
import type { Api, ApiEvent } from '../../shared/api';
import { describeError } from '../api/api-methods';
import { useAppStore } from '../store/app-store';
import { dropTreeCache } from '../tree/tree-cache';
import { jumpToEntry, rowNumberOf } from '../tree/tree-nav';
import { subscribeUntilStopped } from './subscription';

/** Turning follow on selects the newest leaf at once (appends then keep it selected). */
export function useFollow(api: Api): void {
  const follow = useAppStore((s) => s.follow);
  const activeLeaf = useAppStore((s) => s.sessionInfo?.activeLeaf ?? null);
  useEffect(() => {
    if (follow && activeLeaf) void jumpToEntry(api, activeLeaf);
  }, [api, follow, activeLeaf]);
}

/** Opens the selected session, subscribes to it, and applies its live events (appends, reloads, progress). */
export function useSession(api: Api): void {
  const key = useAppStore((s) => s.sessionKey);
  useEffect(() => {
    if (!key) return;
    let live = true;
    const st = useAppStore.getState;
    dropTreeCache();
    st().set({ progress: null });

    const refresh = async (newIds: string[]) => {
      const info = await api.openSession({ key });
      if (!live) return;
      st().set({ sessionInfo: info, treeVersion: st().treeVersion + 1, sessionError: null });
      const s = st();
      const pending = s.pendingSelect && newIds.includes(s.pendingSelect) ? s.pendingSelect : null;
      if (pending) {
        s.set({ pendingSelect: null });
        await jumpToEntry(api, pending);
      } else if (s.follow && info.activeLeaf) {
        await jumpToEntry(api, info.activeLeaf);
      } else if (s.leaf) {
        // Rows may have moved (folding, lanes): keep the cursor on the selected entry.
        const r = await rowNumberOf(api, s.leaf).catch(() => undefined);
        if (r !== undefined && live) st().set({ selectedRow: r });
      }
    };

    const off = api.onEvent((e: ApiEvent) => {
      if (!live) return;
      if (e.type === 'progress' && e.key === key) {
        st().set({
          progress: e.bytesRead >= e.bytesTotal ? null : { bytesRead: e.bytesRead, bytesTotal: e.bytesTotal },
        });
      } else if (e.type === 'session' && e.key === key) {
        if (e.change === 'removed') st().set({ sessionError: 'This session file was removed.' });
        else void refresh(e.newIds).catch((err: unknown) => live && st().set({ sessionError: describeError(err) }));
      }
    });

    api.openSession({ key }).then(
      async (info) => {
        if (!live) return;
        st().set({ sessionInfo: info, progress: null });
        const leaf = st().leaf;
        if (leaf) {
          const r = await rowNumberOf(api, leaf).catch(() => undefined);
          if (r !== undefined && live) st().set({ selectedRow: r, scrollToRow: r });
        }
      },
      (e: unknown) => live && st().set({ sessionError: describeError(e), progress: null }),
    );
    const unsubscribe = subscribeUntilStopped(api, { topic: 'session', key });
    return () => {
      live = false;
      off();
      unsubscribe();
    };
  }, [api, key]);
}
