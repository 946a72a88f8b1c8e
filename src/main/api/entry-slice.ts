/**
 * `getEntry`: an entry's raw line, one byte window at a time. Only the window is read
 * from the file, so a 50 MB line costs a reply of at most `maxBytes` (MAX_SLICE_BYTES),
 * never the whole line held in memory per request.
 */
import type { EntryDetail } from '../../shared/api';
import { clipJson, MAX_SENT_DEPTH } from '../../shared/json-text';
import type { Json } from '../../shared/ledger-types';
import { readRange } from '../core/byte-source';
import type { OpenSession } from '../library/session-cache';

/** What a `getEntry` without `maxBytes` returns at most. */
export const DEFAULT_ENTRY_BYTES = 256 * 1024;

/** Cuts a buffer to at most `max` bytes without splitting a UTF-8 sequence (when it can). */
export function utf8Prefix(buf: Buffer, max: number): Buffer {
  if (buf.length <= max) return buf;
  let end = max;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
  // A window of continuation bytes only (a start inside a sequence): cut anyway, so paging always moves on.
  return buf.subarray(0, end > 0 ? end : max);
}

/** The core's `malformed` note for entry `i`, or null when its payload has its kind's shape. */
function malformedProblem(s: OpenSession, i: number): string | null {
  const e = s.ledger.entry(i);
  return e.kind === 'malformed' ? e.problem : null;
}

/** Entry `i` (id `id`) of an open session, its line from `sliceStart` for at most `maxBytes`. */
export function entrySlice(
  s: OpenSession,
  i: number,
  id: string,
  req: { maxBytes?: number; sliceStart?: number },
): EntryDetail {
  const ix = s.ledger.index;
  const length = ix.length[i];
  const start = Math.min(req.sliceStart ?? 0, length);
  const max = req.maxBytes ?? DEFAULT_ENTRY_BYTES;
  // One byte past the window tells whether the cut falls inside a UTF-8 sequence.
  const window = readRange(s.ledger.source, ix.offset[i] + start, Math.min(max + 1, length - start));
  const cut = utf8Prefix(window, max);
  const sliceEnd = start + cut.length;
  const whole = start === 0 && sliceEnd === length;
  let json: Json | null = null;
  if (whole) {
    try {
      // Deep values become their JSON text past MAX_SENT_DEPTH: the reply must survive IPC and JSON.stringify.
      json = clipJson(JSON.parse(cut.toString('utf8')) as Json, { maxChars: Infinity, maxDepth: MAX_SENT_DEPTH }).value;
    } catch {
      json = null;
    }
  }
  return {
    id,
    index: i,
    line: ix.line[i],
    offset: ix.offset[i],
    length,
    kind: ix.kindName(i),
    raw: cut.toString('utf8'),
    sliceStart: start,
    sliceEnd,
    truncated: !whole,
    json,
    problem: malformedProblem(s, i),
  };
}
