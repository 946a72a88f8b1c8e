/**
 * What a search matches inside one entry: the JSON-decoded string values of the
 * line (message text, tool inputs and results, audit payloads), case-insensitively,
 * never the keys, and never the structural fields (`id`, `parent_id`, `prev_hash`,
 * `ts`, `kind`) — except that a query equal to the entry's id finds that entry. An id
 * search (`match: 'id'`) looks at the ids only, by their start or their end.
 */
import type { SearchHit } from '../../shared/api-features';

/** Fields every line has: they would match every search for a date or a hex digit. */
const STRUCTURAL = new Set(['id', 'parent_id', 'prev_hash', 'ts', 'kind']);
const SNIPPET_BEFORE = 60;
const SNIPPET_CHARS = 160;
const MAX_MARKS = 20;

/** A query prepared once: its lowercase form, and the bytes a line must contain to possibly match. */
export interface PreparedQuery {
  text: string;
  lower: string;
  /**
   * Lowercase ASCII run of the query that any line holding a match contains literally
   * (JSON writes printable ASCII other than `"` and `\` unescaped), or null when the query
   * has none of three characters or more: then a line must contain the query's lower, upper
   * or own UTF-8 bytes (so mixed-case non-ASCII text, "ÜnÏ" for "ünï", is not found).
   */
  asciiNeedle: string | null;
  rawNeedles: Buffer[];
  /** `id`: only entry ids are matched, by their start or end (go to an entry by id). */
  match: 'text' | 'id';
}

export function prepareQuery(text: string, match: 'text' | 'id' = 'text'): PreparedQuery {
  const lower = text.toLowerCase();
  let best = '';
  for (const run of lower.split(/[^\x20-\x21\x23-\x5b\x5d-\x7e]+/)) if (run.length > best.length) best = run;
  const raw = [...new Set([lower, text.toUpperCase(), text])].map((s) => Buffer.from(s, 'utf8'));
  // A run of one or two ASCII characters next to non-ASCII letters ("ünï" → "n") would make
  // nearly every line a candidate: such a query is found by its raw UTF-8 forms instead.
  const useAscii = best.length >= 3 || (best.length > 0 && best === lower);
  return { text, lower, asciiNeedle: useAscii ? best : null, rawNeedles: raw, match };
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
  let first: { path: string; value: string } | null = null;
  let more = 0;
  // Iterative walk: a hostile line may nest arrays thousands deep.
  const stack: { value: unknown; path: string }[] = [];
  for (const key of Object.keys(entry)) {
    if (!STRUCTURAL.has(key)) stack.push({ value: entry[key], path: key });
  }
  stack.reverse();
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: string };
    if (typeof value === 'string') {
      if (value.toLowerCase().includes(q.lower)) {
        if (first) more++;
        else first = { path, value };
      }
    } else if (Array.isArray(value)) {
      for (let k = value.length - 1; k >= 0; k--) stack.push({ value: value[k], path: `${path}[${k}]` });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let k = keys.length - 1; k >= 0; k--) {
        stack.push({ value: (value as Record<string, unknown>)[keys[k]], path: `${path}.${keys[k]}` });
      }
    }
  }
  if (!first) return null;
  return { field: first.path, ...snippetOf(first.value, q.lower), moreFields: more };
}

/** A window of `value` around its first match, with every match inside it marked. */
export function snippetOf(value: string, lowerQuery: string): { snippet: string; matches: [number, number][] } {
  const lower = value.toLowerCase();
  // Offsets found in the lowercase text are valid in the original only when lowercasing kept the length.
  const src = lower.length === value.length ? value : lower;
  const at = lower.indexOf(lowerQuery);
  const start = Math.max(0, at - SNIPPET_BEFORE);
  const end = Math.min(src.length, Math.max(start + SNIPPET_CHARS, at + lowerQuery.length));
  const matches: [number, number][] = [];
  for (let k = at; k >= 0 && k + lowerQuery.length <= end && matches.length < MAX_MARKS;) {
    matches.push([k - start, k - start + lowerQuery.length]);
    k = lower.indexOf(lowerQuery, k + Math.max(1, lowerQuery.length));
  }
  return { snippet: src.slice(start, end), matches };
}

/** An id that starts or ends with the query (case aside): the whole id, the typed part marked. */
function matchId(id: string, q: PreparedQuery): Pick<SearchHit, 'field' | 'snippet' | 'matches' | 'moreFields'> | null {
  const lower = id.toLowerCase();
  const t = q.lower.trim();
  if (t.length === 0) return null;
  const at = lower.startsWith(t) ? 0 : lower.endsWith(t) ? id.length - t.length : -1;
  if (at < 0 || lower.length !== id.length) return null;
  return { field: 'id', snippet: id, matches: [[at, at + t.length]], moreFields: 0 };
}
