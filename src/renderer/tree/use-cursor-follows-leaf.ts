import { useEffect } from 'react';
import type { Api } from '../../shared/api';
import { currentTreeSource } from '../data/session-sources';
import { useAppStore } from '../store/app-store';
import { rowNumberOf } from './tree-nav';

/**
 * The selected leaf drives the tree's cursor: whenever the leaf changes without the cursor
 * already on it (Back/Forward, a pasted `leaf=` link, a search hit), the cursor moves to its row
 * and the row is scrolled into view, so the keys (`]`, `j`…) start from what the panes show.
 * With no leaf named, the selection is the active leaf.
 */
export function useCursorFollowsLeaf(api: Api): void {
  // While a first read is under way the "active leaf" is only the last entry read so far: the
  // cursor waits for the read's end (the session controller places it then) instead of chasing
  // every step, each a findRow and a page of rows that would compete with the read.
  const target = useAppStore((s) => s.leaf ?? (s.sessionInfo?.reading ? null : s.sessionInfo?.activeLeaf) ?? null);
  const open = useAppStore((s) => s.sessionInfo !== null);
  useEffect(() => {
    if (!open || !target) return;
    const from = useAppStore.getState().selectedRow;
    if (from !== null && currentTreeSource()?.get(from)?.id === target) return;
    let live = true;
    rowNumberOf(api, target).then(
      (n) => {
        const s = useAppStore.getState();
        // A key moved the cursor meanwhile, or the selection changed again: theirs wins.
        if (!live || n === undefined || s.selectedRow !== from) return;
        if ((s.leaf ?? s.sessionInfo?.activeLeaf ?? null) !== target) return;
        s.placeCursor(n, true);
      },
      () => undefined, // an id the session does not have: the panes say so, the cursor stays
    );
    return () => {
      live = false;
    };
  }, [api, target, open]);
}
