/**
 * An entry id found before any scan. vak's ids are UUIDv7 (LEDGER.md §7: a new entry gets a
 * new UUIDv7), whose first 48 bits are the millisecond the entry was made; entries are
 * appended in time order, so a file's lines are in the order of their ids' times. An id is
 * looked for first in the indexes of the sessions open now (an id map in memory), then in
 * the files whose span of time holds the id's time, by bisecting the file on the times of
 * its lines and reading only the window where the id must be. What is found is read back
 * and matched like a scanned line; what is not found is left to the scan, which still runs
 * (an id whose file does not keep time order is found there).
 */
import type { promises as fsp } from 'node:fs';
import type { SessionKey } from '../../shared/api';
import { isEntryUuid } from '../../shared/entry-id';

/** The entry id a query names (a whole UUIDv7, as vak writes it: lower case), or null. */
export function entryIdOf(query: string): string | null {
  return isEntryUuid(query) ? query.trim().toLowerCase() : null;
}

/** The millisecond a UUIDv7 was made. */
export function uuidTimeMs(id: string): number {
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

/** What an open session's index tells of an id: where its line is. */
export interface IndexedLine {
  /** 1-based line number. */
  line: number;
  /** The line's bytes (without `\n`), read back from the file the index was read from. */
  bytes: Buffer;
}

/** A session open now, as search sees it: its key and a lookup of an id in its index. */
export interface OpenIndex {
  key: SessionKey;
  /** The id's line, or null when this session's index has no such entry. */
  find(id: string): IndexedLine | null;
}

/** Bytes read at each bisection step: enough for a whole line of most entries. */
const PROBE = 64 << 10;
/** The bisection stops when the window is this small; the window is read whole. */
const WINDOW = 512 << 10;
/** Time a session's recorded span may be off by (clocks, a header written before the first entry). */
export const SPAN_SLACK_MS = 60 * 60 * 1000;

/** Counted work: what a lookup read. */
export interface LookupWork {
  /** Bytes read by bisection probes and windows. */
  probedBytes: number;
  /** Bytes read to count the lines before an entry found (its line number). */
  countedBytes: number;
}

/** The time of the first complete line starting at or after `at` (its id's, else its `ts`), and where it starts. */
async function probe(
  fh: fsp.FileHandle,
  at: number,
  size: number,
  work: LookupWork,
): Promise<{ start: number; ms: number } | null> {
  const buf = Buffer.allocUnsafe(Math.min(PROBE, size - at));
  const { bytesRead } = await fh.read(buf, 0, buf.length, at);
  work.probedBytes += bytesRead;
  const b = buf.subarray(0, bytesRead);
  const nl = at === 0 ? -1 : b.indexOf(10);
  if (at !== 0 && nl < 0) return null;
  const start = nl + 1;
  const end = b.indexOf(10, start);
  // The common fields come first in a vak line: the id (or ts) is near the start, even of a long line.
  const head = b.toString('latin1', start, end < 0 ? Math.min(b.length, start + 512) : Math.min(end, start + 512));
  const id = /"id"\s*:\s*"([^"\\]{1,128})"/.exec(head)?.[1];
  let ms = id !== undefined && isEntryUuid(id) ? uuidTimeMs(id) : NaN;
  if (Number.isNaN(ms)) {
    const ts = /"ts"\s*:\s*"([^"\\]{1,64})"/.exec(head)?.[1];
    ms = ts === undefined ? NaN : Date.parse(ts);
  }
  return Number.isNaN(ms) ? null : { start: at + start, ms };
}

/**
 * The byte range of `fh` where the line of an entry made at `ms` is, if the file's lines are
 * in time order: the file bisected on its lines' times down to a small window. The whole
 * file when a probe finds no time (a line longer than a probe, a line without one).
 */
export async function windowFor(
  fh: fsp.FileHandle,
  size: number,
  ms: number,
  work: LookupWork,
): Promise<{ from: number; to: number }> {
  let lo = 0;
  let hi = size;
  while (hi - lo > WINDOW) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const p = await probe(fh, mid, size, work);
    if (p === null || p.start >= hi) break;
    // Lines made in the same millisecond (or a clock that stepped back) sit on both sides: `<`.
    if (p.ms < ms) lo = p.start;
    else hi = p.start;
  }
  return { from: lo, to: Math.min(size, hi + PROBE) };
}

/** Offsets in `buf` where `id` is written (lower or upper case), each inside the line holding it. */
export function idOffsets(buf: Buffer, id: string): number[] {
  const out: number[] = [];
  for (const spelled of new Set([id, id.toUpperCase()])) {
    for (let k = buf.indexOf(spelled, 0, 'latin1'); k >= 0; k = buf.indexOf(spelled, k + 1, 'latin1')) out.push(k);
  }
  return out.sort((a, b) => a - b);
}

/** The 1-based number of the line starting at byte `lineStart` (its `\n`s before it counted). */
export async function lineNumberAt(fh: fsp.FileHandle, lineStart: number, work: LookupWork): Promise<number> {
  const buf = Buffer.allocUnsafe(Math.min(4 << 20, Math.max(1, lineStart)));
  let n = 0;
  for (let at = 0; at < lineStart;) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, lineStart - at), at);
    if (bytesRead === 0) break;
    work.countedBytes += bytesRead;
    for (let k = buf.indexOf(10); k >= 0 && k < bytesRead; k = buf.indexOf(10, k + 1)) n++;
    at += bytesRead;
  }
  return n + 1;
}

/** The line starting at `start` (without its `\n`), or null when it does not end before `max` bytes or the file's end. */
export async function readLineAt(
  fh: fsp.FileHandle,
  start: number,
  size: number,
  max: number,
  work: LookupWork,
): Promise<Buffer | null> {
  const parts: Buffer[] = [];
  let len = 0;
  for (let at = start; at < size && len <= max;) {
    const buf = Buffer.allocUnsafe(Math.min(Math.max(PROBE, len), size - at));
    const { bytesRead } = await fh.read(buf, 0, buf.length, at);
    if (bytesRead === 0) break;
    work.probedBytes += bytesRead;
    const nl = buf.subarray(0, bytesRead).indexOf(10);
    if (nl >= 0) {
      parts.push(buf.subarray(0, nl));
      return Buffer.concat(parts);
    }
    parts.push(buf.subarray(0, bytesRead));
    len += bytesRead;
    at += bytesRead;
  }
  return null; // unterminated: no entry yet
}
