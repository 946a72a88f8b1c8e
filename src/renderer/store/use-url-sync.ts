import { useEffect, useState } from 'react';
import { urlStateOf, useAppStore, type AppState } from './app-store';
import { formatUrlState, parseUrlState } from './url-state';

/** What Back/Forward step through: the open session and its selected leaf. */
const selectionOf = (s: AppState): string => `${s.sessionKey ?? ''}\n${s.leaf ?? ''}`;

/** Applies the URL hash to the store unless it already holds it. */
export function restoreUrl(win: Window): void {
  const parsed = parseUrlState(win.location.hash);
  if (formatUrlState(parsed) !== formatUrlState(urlStateOf(useAppStore.getState()))) {
    useAppStore.getState().applyUrl(parsed);
  }
}

/**
 * Restores the UI from the URL hash, then keeps the hash in step with it: a new leaf (or session)
 * selection is a new history entry (pushState), so Back/Forward walk through selections; every
 * other change (plan, profile, overrides, panels, compare) rewrites the current entry (replaceState).
 * While following the newest leaf, selections come from the agent's appends, not the user: those
 * replace too, or Back would step through every append.
 */
export function useUrlSync(win: Window = window): void {
  // Applied in the first render, before anything below reads the store: a page opened on a
  // session (a reload) asks for it in the first render's effects, with no render of the empty
  // app before it and nothing asked for "no session".
  useState(() => restoreUrl(win));
  useEffect(() => {
    restoreUrl(win);
    let last = formatUrlState(urlStateOf(useAppStore.getState()));
    let lastSelection = selectionOf(useAppStore.getState());
    /** True while the URL itself is being applied: nothing it causes is a new history entry. */
    let restoring = false;
    const unsub = useAppStore.subscribe((s) => {
      const next = formatUrlState(urlStateOf(s));
      const selection = selectionOf(s);
      if (next === last) {
        lastSelection = selection;
        return;
      }
      last = next;
      const url = `${win.location.pathname}${win.location.search}${next}`;
      if (selection !== lastSelection && !s.follow && !restoring) win.history.pushState(null, '', url);
      else win.history.replaceState(null, '', url);
      lastSelection = selection;
    });
    // Back/Forward fire popstate (and hashchange when only the hash differs); a pasted link fires hashchange.
    const restore = () => {
      const parsed = parseUrlState(win.location.hash);
      const next = formatUrlState(parsed);
      if (next === last) return;
      last = next;
      restoring = true;
      try {
        useAppStore.getState().applyUrl(parsed);
      } finally {
        restoring = false;
      }
    };
    win.addEventListener('popstate', restore);
    win.addEventListener('hashchange', restore);
    return () => {
      unsub();
      win.removeEventListener('popstate', restore);
      win.removeEventListener('hashchange', restore);
    };
  }, [win]);
}
