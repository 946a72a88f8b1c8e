import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { Api } from '../../shared/api';
import { paramsKey } from './search-params';
import { SearchRun, type SearchParams, type SearchSnapshot } from './search-run';

/** Typing waits this long for the next key before it searches. */
export const SEARCH_DEBOUNCE_MS = 150;

const noRun = () => () => undefined;
const noSnapshot = () => null;

/**
 * The search for `params`, typed ahead: each change cancels the running search at once
 * and starts the next one after a short pause; closing the panel cancels it too.
 */
export function useSearch(
  api: Api,
  params: SearchParams | null,
): { run: SearchRun | null; snap: SearchSnapshot | null; retry: () => void } {
  const key = paramsKey(params);
  // `params` is rebuilt on every render: the key says when it really changed.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for params
  const stable = useMemo(() => params, [key]);
  const [attempt, setAttempt] = useState(0);
  // The run belongs to the key and attempt it was started for: a stale one is not shown.
  const [started, setStarted] = useState<{ for: string; run: SearchRun } | null>(null);
  const current = `${attempt}:${key}`;
  useEffect(() => {
    if (!stable) return;
    let run: SearchRun | null = null;
    const timer = setTimeout(() => {
      run = new SearchRun(api, stable);
      setStarted({ for: current, run });
      run.start();
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      run?.cancel();
    };
  }, [api, stable, current]);
  const run = started?.for === current && stable ? started.run : null;
  const snap = useSyncExternalStore(run?.subscribe ?? noRun, run?.snapshot ?? noSnapshot);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { run, snap, retry };
}
