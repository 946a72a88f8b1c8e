/**
 * What a search matches inside one entry: the strings `searched-fields.ts` names (message
 * text, tool inputs and results, audit payloads), folded as `case-fold.ts` folds them —
 * never keys, labels or the common fields, except that a query equal to the entry's id
 * finds that entry. An id search (`match: 'id'`) looks at the ids only, by their start or
 * their end.
 */
import type { SearchHit } from '../../shared/api-features';
import { anchorOf, fold, foldMapped, type AnchorChar } from './case-fold';
import { searchedStrings } from './searched-fields';

const SNIPPET_BEFORE = 60;
const SNIPPET_CHARS = 160;
const MAX_MARKS = 20;

/** A query prepared once: its folded form, and what a line's bytes must hold to possibly match. */
export interface PreparedQuery {
  text: string;
  folded: string;
  /** The run of the query every matching line spells in its bytes (empty: every line is a candidate). */
  anchor: AnchorChar[];
  /** `id`: only entry ids are matched, by their start or end (go to an entry by id). */
  match: 'text' | 'id';
}

export function prepareQuery(text: string, match: 'text' | 'id' = 'text'): PreparedQuery {
  const folded = fold(text);
  return { text, folded, anchor: anchorOf(folded), match };
}

/** The hit an entry makes for the query, or null. `entry` is the parsed line. */
export function matchEntry(
  entry: Record<string, unknown>,
  q: PreparedQuery,
): Pick<SearchHit, 'field' | 'snippet' | 'matches' | 'moreFields'> | null {
  const id = entry['id'];
  if (q.match === 'id') return typeof id === 'string' ? matchId(id, q) : null;
  if (typeof id === 'string' && id === q.text.trim()) {
    return { field: 'id', snippet: id, matches: [[0, id.length]], moreFields: 0 };
  }
  if (q.folded.length === 0) return null;
  let first: { path: string; value: string } | null = null;
  let more = 0;
  for (const s of searchedStrings(entry)) {
    if (!fold(s.value).includes(q.folded)) continue;
    if (first) more++;
    else first = s;
  }
  if (!first) return null;
  return { field: first.path, ...snippetOf(first.value, q.folded), moreFields: more };
}

/**
 * A window of `value` (in normal form C) around its first match of the folded query, with
 * every match inside it marked on the text as written, not on its folded form.
 */
export function snippetOf(value: string, foldedQuery: string): { snippet: string; matches: [number, number][] } {
  const { text, folded, origin } = foldMapped(value);
  const found: [number, number][] = [];
  for (
    let k = folded.indexOf(foldedQuery);
    k >= 0;
    k = folded.indexOf(foldedQuery, k + Math.max(1, foldedQuery.length))
  ) {
    found.push([origin[k], nextOrigin(origin, k + foldedQuery.length)]);
  }
  const at = found.length > 0 ? found[0][0] : 0;
  const firstEnd = found.length > 0 ? found[0][1] : 0;
  const start = Math.max(0, at - SNIPPET_BEFORE);
  const end = Math.min(text.length, Math.max(start + SNIPPET_CHARS, firstEnd));
  const matches: [number, number][] = [];
  for (const [a, b] of found) {
    if (b > end || matches.length >= MAX_MARKS) break;
    matches.push([a - start, b - start]);
  }
  return { snippet: text.slice(start, end), matches };
}

/** The text offset where folded offset `k` ends a match: past the whole character it falls in. */
function nextOrigin(origin: number[], k: number): number {
  const o = origin[k];
  // A fold of one character into several ("İ" → "i̇") ends inside it only if the next folded unit shares its origin.
  return k > 0 && origin[k - 1] === o ? (origin.find((x, j) => j > k && x > o) ?? o) : o;
}

/** An id that starts or ends with the query (case aside): the whole id, the typed part marked. */
function matchId(id: string, q: PreparedQuery): Pick<SearchHit, 'field' | 'snippet' | 'matches' | 'moreFields'> | null {
  const lower = fold(id);
  const t = q.folded.trim();
  if (t.length === 0) return null;
  const at = lower.startsWith(t) ? 0 : lower.endsWith(t) ? id.length - t.length : -1;
  if (at < 0 || lower.length !== id.length) return null;
  return { field: 'id', snippet: id, matches: [[at, at + t.length]], moreFields: 0 };
}
