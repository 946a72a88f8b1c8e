/**
 * What the palette lists: every registered action (the same list the keys overlay draws
 * from), the sessions of the home by title, and entries found by id. Ranked by the fuzzy
 * matcher; with no query, the actions by group, then the newest sessions.
 */
import type { SessionSummary } from '../../shared/api';
import { isEntryUuid } from '../../shared/entry-id';
import type { SearchHit } from '../../shared/api-features';
import { recentFileActions } from '../actions/file-actions';
import { ACTIONS, type RegisteredAction } from '../actions/registry';
import type { AppState } from '../store/types';
import { shortPath } from '../util/format';
import { rankFuzzy } from './fuzzy';

export type PaletteEntry =
  | { type: 'action'; id: string; title: string; detail: string; action: RegisteredAction; enabled: boolean }
  | { type: 'session'; id: string; title: string; detail: string; key: string }
  | { type: 'entry'; id: string; title: string; detail: string; key: string; entryId: string };

/** A ranked entry, with the positions of its title that matched the query. */
export interface RankedEntry {
  entry: PaletteEntry;
  marks: number[];
}

/** Entries shown at most: a palette is for picking, the search panel for browsing. */
export const MAX_SHOWN = 60;
/** Sessions listed when nothing is typed. */
const RECENT_SESSIONS = 12;

/** A query that can be (part of) an entry id: one word of letters, digits, `-` or `_`. */
export const idLike = (query: string): boolean => /^[A-Za-z0-9_-]{3,64}$/.test(query.trim());

/** A query that is a whole entry id: it names one entry, looked for in every session. */
export const wholeEntryId = isEntryUuid;

export function actionEntries(state: AppState): PaletteEntry[] {
  const recent = recentFileActions(state, (p) => shortPath(p, state.home?.userHome)).map((a): RegisteredAction => ({
    ...a,
    group: a.group ?? 'Files',
  }));
  return [...ACTIONS, ...recent].map((action) => ({
    type: 'action' as const,
    id: `action:${action.id}`,
    title: action.title,
    detail: action.group,
    action,
    enabled: !action.enabled || action.enabled(state),
  }));
}

/** Titles are first messages: long ones are clipped (the matcher's cost grows with the length). */
const clip = (t: string): string => (t.length > 100 ? `${t.slice(0, 99)}…` : t);

export function sessionEntries(sessions: readonly SessionSummary[], userHome?: string): PaletteEntry[] {
  return [...sessions]
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
    .map((s) => ({
      type: 'session' as const,
      id: `session:${s.key}`,
      title: `Open session: ${clip(s.title ?? s.sessionId)}`,
      detail: `${s.agent} · ${s.cwd ? shortPath(s.cwd, userHome) : 'no cwd'}`,
      key: s.key,
    }));
}

export function entryEntries(key: string, hits: readonly SearchHit[]): PaletteEntry[] {
  return hits.map((h) => ({
    type: 'entry' as const,
    id: `entry:${key}:${h.entryId}`,
    title: `Go to entry ${h.entryId}`,
    detail: `${h.kind} · line ${h.line}`,
    key,
    entryId: h.entryId,
  }));
}

/** The list for a query: entries found by id first (an id is specific), then actions and sessions by score. */
export function rankEntries(
  query: string,
  actions: readonly PaletteEntry[],
  sessions: readonly PaletteEntry[],
  byId: readonly PaletteEntry[],
): RankedEntry[] {
  const q = query.trim();
  if (q.length === 0) {
    return [...actions, ...sessions.slice(0, RECENT_SESSIONS)].map((entry) => ({ entry, marks: [] }));
  }
  const ids: RankedEntry[] = byId.map((entry) => ({ entry, marks: [] }));
  const ranked = rankFuzzy(q, [...actions, ...sessions], (e) => e.title).map(({ item, match }) => ({
    entry: item,
    marks: match.positions,
  }));
  return [...ids, ...ranked].slice(0, MAX_SHOWN);
}
