/**
 * The panel's query, scope and filters as the backend's search request. Dates come from
 * date inputs (`YYYY-MM-DD`) and bound a whole UTC day, since the backend compares entry
 * stamps as UTC text.
 */
import type { SessionKey } from '../../shared/api';
import type { SearchFilters } from '../../shared/api-features';
import { KNOWN_KINDS, STORY_KINDS } from '../../shared/ledger-types';
import type { SearchUiFilters } from '../store/types';
import type { SearchParams } from './search-run';

/** §3's entry kinds, as the kind filter offers them. */
export const ENTRY_KINDS: readonly string[] = KNOWN_KINDS;

/** The kind filter's `audit` choice: every known kind outside the story. */
export const AUDIT_KINDS: readonly string[] = ENTRY_KINDS.filter((k) => !STORY_KINDS.includes(k));

/** Whitespace at either end is not part of what a user looks for. */
export const searchText = (query: string): string => query.trim();

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The backend's filters for what the panel shows ('' = any). */
export function apiFilters(f: SearchUiFilters): SearchFilters {
  const out: SearchFilters = {};
  if (f.agent) out.agents = [f.agent];
  if (f.cwd) out.cwds = [f.cwd];
  if (f.kind === 'audit') out.kinds = [...AUDIT_KINDS];
  else if (f.kind) out.kinds = [f.kind];
  if (DAY.test(f.from)) out.from = `${f.from}T00:00:00.000Z`;
  if (DAY.test(f.to)) out.to = `${f.to}T23:59:59.999Z`;
  return out;
}

/** The request for a query, or null when there is nothing to look for. */
export function searchParams(
  query: string,
  scope: 'home' | 'session',
  session: SessionKey | null,
  filters: SearchUiFilters,
): SearchParams | null {
  const text = searchText(query);
  if (text.length === 0) return null;
  return {
    query: text.slice(0, 1000),
    scope: scope === 'session' && session !== null ? { kind: 'session', key: session } : { kind: 'home' },
    filters: apiFilters(filters),
  };
}

/** A stable text for "the same search": the panel restarts only when this changes. */
export const paramsKey = (p: SearchParams | null): string => (p ? JSON.stringify(p) : '');
