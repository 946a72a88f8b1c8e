import { useEffect, useState } from 'react';
import type { ProjectedSearch } from '../../shared/api-features';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { useAppStore } from '../store/app-store';
import { searchText } from './search-params';

/** Typing settles before the backend plans every turn end. */
const DEBOUNCE_MS = 250;
const LIMIT = 200;

const FIDELITY_WORDS: ReadonlyMap<string, string> = new Map([
  ['system', 'system prompt'],
  ['preamble', 'preamble'],
  ['full', 'Full'],
  ['open', 'open turn'],
  ['card', 'Card'],
  ['packet', 'Packet'],
  ['reset', 'reset summary'],
  ['tail', 'tail'],
]);

const shortId = (id: string): string => (id.length > 12 ? '…' + id.slice(-8) : id);

/**
 * Search in what the model was sent (the "what the model saw" scope): the selected leaf's projected
 * context, or every turn end of its chain. A hit names the turn ends and the fidelity in which the
 * text was sent; choosing it pins its entry and opens the entry's fate strip.
 */
export function ProjectedSearchView({ query }: { query: string }) {
  const api = useApi();
  const key = useAppStore((s) => s.sessionKey);
  const leaf = useAppStore((s) => s.leaf);
  const plan = useAppStore((s) => s.plan);
  const profile = useAppStore((s) => s.profile);
  const overrides = useAppStore((s) => s.overrides);
  const [across, setAcross] = useState<'leaf' | 'turn-ends'>('turn-ends');
  const [state, setState] = useState<{ sig: string; result: ProjectedSearch | null; error: string | null }>({
    sig: '',
    result: null,
    error: null,
  });
  const text = searchText(query).slice(0, 1000);
  const sig = JSON.stringify([key, leaf, plan, profile, overrides, across, text]);

  useEffect(() => {
    if (!key || text.length === 0) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      api
        .searchProjected(
          { key, leaf, plan, profile, overrides, query: text, across, limit: LIMIT },
          { signal: abort.signal },
        )
        .then(
          (result) => !abort.signal.aborted && setState({ sig, result, error: null }),
          (e: unknown) => !abort.signal.aborted && setState({ sig, result: null, error: describeError(e) }),
        );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [api, key, leaf, plan, profile, overrides, across, text, sig]);

  const showFate = (entry: string) => {
    const s = useAppStore.getState();
    s.pin({ entries: [entry], messages: [] });
    s.toggleFate(true);
  };
  const current = state.sig === sig;
  const r = current ? state.result : null;
  return (
    <div className="projected-search" aria-label="Search in what the model saw">
      <div className="search-scope" role="group" aria-label="Projected context">
        <button type="button" aria-pressed={across === 'leaf'} onClick={() => setAcross('leaf')}>
          at this leaf
        </button>
        <button type="button" aria-pressed={across === 'turn-ends'} onClick={() => setAcross('turn-ends')}>
          every turn end
        </button>
      </div>
      {text.length === 0 ? (
        <p className="search-empty">
          Type to search what the model was sent under the current plan and profile — at the selected leaf, or at every
          turn end of its chain (“was API_KEY ever sent?”). Choose a hit to see its entry’s fate.
        </p>
      ) : !current ? (
        <p className="search-status dim" role="status">
          searching what the model saw…
        </p>
      ) : state.error ? (
        <p className="error" role="alert">
          {state.error}
        </p>
      ) : r ? (
        <>
          <p className="search-status" role="status" data-testid="projected-summary">
            {r.hits.length === 0
              ? across === 'leaf'
                ? 'not in the projected context at this leaf'
                : `never sent at any of ${r.turnEnds} turn ends`
              : across === 'leaf'
                ? `${r.hits.length} message${r.hits.length === 1 ? '' : 's'} at this leaf`
                : `sent from turn ${r.firstSent} to turn ${r.lastSent} (of ${r.turnEnds} turn ends)`}
            {r.truncated ? ` · first ${LIMIT} entries only` : ''}
          </p>
          <ul className="projected-hits">
            {r.hits.map((h, k) => (
              <li key={k}>
                <button
                  type="button"
                  className="projected-hit"
                  data-entry-id={h.entry}
                  data-fidelity={h.fidelity}
                  onClick={() => showFate(h.entry)}
                  title="Pin this entry and show its fate"
                >
                  <span className="projected-where">
                    {across === 'leaf'
                      ? `message #${h.message ?? '–'}`
                      : h.fromTurn === h.toTurn
                        ? `turn ${h.fromTurn}`
                        : `turns ${h.fromTurn}–${h.toTurn}`}{' '}
                    · {FIDELITY_WORDS.get(h.fidelity) ?? h.fidelity} · {h.kind} {shortId(h.entry)}
                  </span>
                  <span className="projected-snippet">{h.snippet}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
