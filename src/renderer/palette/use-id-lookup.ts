import { useEffect, useState } from 'react';
import type { Api, SessionKey } from '../../shared/api';
import type { SearchSessionHits } from '../../shared/api-features';
import { SEARCH_DEBOUNCE_MS } from '../search/use-search';
import { idLike } from './palette-entries';

/** Entries offered per id query. */
const ID_HITS = 8;

/**
 * Entries whose id starts or ends with the typed text (the backend's id search), in the
 * open session, or across the home when none is open. Typed ahead like search: a newer
 * query cancels the older one.
 */
export function useIdLookup(api: Api, query: string, session: SessionKey | null): SearchSessionHits[] {
  const [found, setFound] = useState<{ query: string; groups: SearchSessionHits[] }>({ query: '', groups: [] });
  const text = query.trim();
  const wanted = idLike(text);
  useEffect(() => {
    if (!wanted) return;
    const searchId = `id-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    let live = true;
    const timer = setTimeout(() => {
      api
        .search({
          searchId,
          query: text,
          match: 'id',
          scope: session ? { kind: 'session', key: session } : { kind: 'home' },
          filters: {},
          limit: ID_HITS,
        })
        .then(
          (page) => {
            if (live) setFound({ query: text, groups: page.sessions });
          },
          () => live && setFound({ query: text, groups: [] }),
        );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
      api.cancelSearch({ searchId }).catch(() => undefined);
    };
  }, [api, text, wanted, session]);
  // Only what answers the current text (an older answer is not shown under a newer query).
  return wanted && found.query === text ? found.groups : [];
}
