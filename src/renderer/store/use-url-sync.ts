import { useEffect } from 'react';
import { urlStateOf, useAppStore } from './app-store';
import { formatUrlState, parseUrlState } from './url-state';

/** Restores the selection from the URL hash, then keeps the hash in step with it. */
export function useUrlSync(win: Window = window): void {
  useEffect(() => {
    useAppStore.getState().applyUrl(parseUrlState(win.location.hash));
    let last = formatUrlState(urlStateOf(useAppStore.getState()));
    const unsub = useAppStore.subscribe((s) => {
      const next = formatUrlState(urlStateOf(s));
      if (next === last) return;
      last = next;
      const url = `${win.location.pathname}${win.location.search}${next}`;
      win.history.replaceState(null, '', url);
    });
    const onHash = () => {
      const next = formatUrlState(parseUrlState(win.location.hash));
      if (next === last) return;
      last = next;
      useAppStore.getState().applyUrl(parseUrlState(win.location.hash));
    };
    win.addEventListener('hashchange', onHash);
    return () => {
      unsub();
      win.removeEventListener('hashchange', onHash);
    };
  }, [win]);
}
