import { useEffect } from 'react';
import type { Api, ApiEvent, SessionDelta } from '../../shared/api';
import { describeError } from '../api/api-methods';
import { currentTreeSource, dropSessionSources } from '../data/session-sources';
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

type SessionEvent = Extract<ApiEvent, { type: 'session' }>;

/**
 * Puts an append's rows in the open tree source: the new rows (or, past MAX_DELTA_ROWS, none:
 * they are fetched when shown) and the rows a new lane line passes through fetched again.
 */
function patchTree(delta: SessionDelta): void {
  const tree = currentTreeSource();
  if (!tree) return;
  const folded = tree.foldAudit;
  const total = folded ? delta.foldedRowCount : delta.rowCount;
  const first = folded ? delta.foldedFirstRow : delta.firstNewIndex;
  const rows = folded ? delta.foldedRows : delta.rows;
  const redraw = folded ? delta.redrawFolded : delta.redraw;
  // Rows that did not come with the event are fetched again when shown (one range: the hull).
  const stale = rows ? redraw : { start: Math.min(redraw.start, first), end: Math.max(redraw.end, total) };
  tree.patch(total, first, rows ?? [], stale);
  tree.meta = Math.max(1, delta.laneCount);
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

    // An append that carries its delta is patched in: tree rows and counts from the event, no re-open.
    const patch = async (e: SessionEvent, delta: SessionDelta) => {
      patchTree(delta);
      if (e.reading !== undefined) st().setProgress(e.reading);
      st().sessionAppended({
        entryCount: e.entryCount,
        activeLeaf: e.activeLeaf,
        warningCount: delta.warningCount,
        rowCount: delta.rowCount,
        foldedRowCount: delta.foldedRowCount,
        laneCount: delta.laneCount,
        leaves: delta.leafCount,
        branchPoints: (st().sessionInfo?.branchPoints ?? 0) + delta.branchPointsAdded,
        usage: delta.usage,
        ...(delta.work ? { work: delta.work } : {}),
      });
      if (e.reading === null) {
        // A first open read in steps has read to the end: its figures (usage, work, links) are
        // whole now, and the active leaf is the file's; the cursor goes there unless one was chosen.
        const chosen = st().leaf;
        await refresh(e.newIds);
        if (!chosen && live && !st().follow && e.activeLeaf) {
          const r = await rowNumberOf(api, e.activeLeaf).catch(() => undefined);
          if (r !== undefined && live && !st().leaf) st().placeCursor(r, true);
        }
        return;
      }
      const pending = st().takePendingSelect(e.newIds);
      if (pending) await jumpToEntry(api, pending);
      else if (st().follow && e.activeLeaf) await jumpToEntry(api, e.activeLeaf);
      // Otherwise the selection stays, and so does its row: appended rows never move earlier ones.
    };

    const off = api.onEvent((e: ApiEvent) => {
      if (!live) return;
      if (e.type === 'progress' && e.key === key) {
        st().setProgress({ bytesRead: e.bytesRead, bytesTotal: e.bytesTotal });
      } else if (e.type === 'session' && e.key === key) {
        const failed = (err: unknown) => live && st().sessionFailed(describeError(err));
        if (e.change === 'removed') st().sessionFailed('This session file was removed.');
        // The hash check of a first read: found nothing, only its mark goes; else warnings and rows are asked again.
        else if (e.change === 'checked' && e.hashMismatches === 0) st().hashesChecked();
        else if (e.change === 'appended' && e.delta && st().sessionInfo) void patch(e, e.delta).catch(failed);
        else void refresh(e.newIds).catch(failed);
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
