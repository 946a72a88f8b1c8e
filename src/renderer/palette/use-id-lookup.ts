import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { Api, SessionKey } from '../../shared/api';
import type { SearchSessionHits } from '../../shared/api-features';
import { SearchRun, type SearchSnapshot } from '../search/search-run';
import { SEARCH_DEBOUNCE_MS } from '../search/use-search';
import { idLike, wholeEntryId } from './palette-entries';

/** Entries offered per id query. */
const ID_HITS = 8;

const noRun = () => () => undefined;
const noSnapshot = () => null;

/** What the palette shows of a lookup by id: the entries found so far, and how far it has searched. */
export interface IdLookup {
  groups: SearchSessionHits[];
  /** The lookup for the current text (null before it starts): files searched of the total, its status. */
  progress: SearchSnapshot | null;
  /** Stops the lookup, here and on the backend. */
  stop: () => void;
}

/**
 * Entries whose id starts or ends with the typed text (the backend's id search), asked page
 * after page until some are found or every file was searched, so that the palette shows its
 * progress. A whole entry id, or any text when no session is open, is looked for in every
 * session of the home (the backend answers a whole id from the open sessions' indexes and the
 * files' times before it scans); the tail of an id in the open session. Typed ahead like
 * search: newer text, or closing the palette, cancels the lookup on the backend.
 */
export function useIdLookup(api: Api, query: string, session: SessionKey | null): IdLookup {
  const text = query.trim();
  const wanted = idLike(text);
  const whole = wholeEntryId(text);
  const home = whole || session === null;
  const [started, setStarted] = useState<{ for: string; run: SearchRun } | null>(null);
  const current = `${text}\n${home ? '' : session}`;
  useEffect(() => {
    if (!wanted) return;
    let run: SearchRun | null = null;
    const timer = setTimeout(() => {
      run = new SearchRun(
        api,
        {
          query: text,
          match: 'id',
          scope: home || session === null ? { kind: 'home' } : { kind: 'session', key: session },
          filters: {},
        },
        // A whole id names one entry: found, the lookup stops.
        whole ? 1 : ID_HITS,
      );
      setStarted({ for: current, run });
      run.start();
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      run?.cancel();
    };
  }, [api, text, wanted, whole, home, session, current]);
  // Only what answers the current text (an older answer is not shown under a newer query).
  const run = wanted && started?.for === current ? started.run : null;
  const snap = useSyncExternalStore(run?.subscribe ?? noRun, run?.snapshot ?? noSnapshot);
  const groups = useMemo(() => snap?.groups.map((g) => ({ ...g, hits: g.hits.slice(0, ID_HITS) })) ?? [], [snap]);
  const stop = useCallback(() => run?.cancel(), [run]);
  return { groups, progress: snap, stop };
}
