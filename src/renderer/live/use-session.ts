import { useEffect } from 'react';
import type { Api, ApiEvent } from '../../shared/api';
import { describeError } from '../api/api-methods';
import { dropSessionSources } from '../data/session-sources';
import { useAppStore } from '../store/app-store';
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
    dropSessionSources();
    st().setProgress(null);

    const refresh = async (newIds: string[]) => {
      const info = await api.openSession({ key });
      if (!live) return;
      st().sessionChanged(info);
      const pending = st().takePendingSelect(newIds);
      if (pending) {
        await jumpToEntry(api, pending);
      } else if (st().follow && info.activeLeaf) {
        await jumpToEntry(api, info.activeLeaf);
      } else {
        const leaf = st().leaf;
        if (!leaf) return;
        // Rows may have moved (folding, lanes): keep the cursor on the selected entry.
        const r = await rowNumberOf(api, leaf).catch(() => undefined);
        if (r !== undefined && live) st().placeCursor(r);
      }
    };

    const off = api.onEvent((e: ApiEvent) => {
      if (!live) return;
      if (e.type === 'progress' && e.key === key) {
        st().setProgress({ bytesRead: e.bytesRead, bytesTotal: e.bytesTotal });
      } else if (e.type === 'session' && e.key === key) {
        if (e.change === 'removed') st().sessionFailed('This session file was removed.');
        else void refresh(e.newIds).catch((err: unknown) => live && st().sessionFailed(describeError(err)));
      }
    });

    api.openSession({ key }).then(
      async (info) => {
        if (!live) return;
        st().sessionOpened(info);
        // The tree opens on the selected leaf (the active one unless the URL names another), in view.
        const leaf = st().leaf ?? info.activeLeaf;
        if (leaf) {
          const r = await rowNumberOf(api, leaf).catch(() => undefined);
          if (r !== undefined && live) st().placeCursor(r, true);
        }
      },
      (e: unknown) => live && st().sessionFailed(describeError(e)),
    );
    const unsubscribe = subscribeUntilStopped(api, { topic: 'session', key });
    return () => {
      live = false;
      off();
      unsubscribe();
    };
  }, [api, key]);
}
