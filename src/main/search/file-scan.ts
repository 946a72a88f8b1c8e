/**
 * One ledger file scanned for a query, from a byte offset, as a stream: chunks are searched
 * for what any matching line must hold in its bytes (candidate-finder.ts); only those lines
 * are decoded as JSON and matched (text-match.ts). Never writes, never takes the agent's lock.
 */
import { constants, promises as fsp } from 'node:fs';
import type { SearchHit } from '../../shared/api-features';
import { candidateFinder, candidatePattern, maskedNeedle } from './candidate-finder';
import { matchEntry, type PreparedQuery } from './text-match';

const CHUNK = 4 << 20;
/** A line longer than this is skipped (not searched) rather than held in memory. */
export const MAX_LINE = 64 << 20;

export interface EntryFilter {
  kinds: Set<string> | null;
  from: string | null;
  to: string | null;
}

/** Where a scan of one file stands: the next byte to read and the line number there. */
export interface ScanPosition {
  offset: number;
  line: number;
}

export interface ScanOutcome {
  hits: SearchHit[];
  /** Where to continue; null when the file was scanned to its end. */
  next: ScanPosition | null;
  bytesScanned: number;
  /** Candidate lines that were decoded (the prefilter's cost). */
  decoded: number;
}

/**
 * Opens a file for reading only if it is a regular file and not a symbolic link: a FIFO
 * would block the read forever, a link could point out of the home. O_NONBLOCK keeps a
 * FIFO swapped in after the lstat from blocking the open; fstat checks what was opened.
 */
export async function openRegular(path: string): Promise<fsp.FileHandle | null> {
  const st = await fsp.lstat(path).catch(() => null);
  if (!st || !st.isFile()) return null;
  const fh = await fsp.open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW).catch(() => null);
  if (!fh) return null;
  const st2 = await fh.stat().catch(() => null);
  if (!st2 || !st2.isFile()) {
    await fh.close();
    return null;
  }
  return fh;
}

/** Counts `\n` in `s` from `from` (inclusive) to `to` (exclusive). */
function countLines(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let k = buf.indexOf(10, from); k >= 0 && k < to; k = buf.indexOf(10, k + 1)) n++;
  return n;
}

/**
 * Scans `fh` from `start` until `limit` hits, `budget` bytes, the end of the file, or
 * `cancelled()`. A line is scanned once: a page ends after a whole line.
 */
export async function scanFile(
  fh: fsp.FileHandle,
  start: ScanPosition,
  q: PreparedQuery,
  filter: EntryFilter,
  limit: number,
  budget: number,
  cancelled: () => boolean,
): Promise<ScanOutcome> {
  const size = (await fh.stat()).size;
  const out: ScanOutcome = { hits: [], next: null, bytesScanned: 0, decoded: 0 };
  const needle = maskedNeedle(q);
  const pattern = needle === null ? candidatePattern(q) : null;
  let buf = Buffer.allocUnsafe(CHUNK);
  let fill = 0; // bytes of buf holding data from `base`
  let base = start.offset;
  let line = start.line;
  let skipping = false; // inside a line longer than MAX_LINE
  while (base + fill < size) {
    if (cancelled()) return { ...out, next: { offset: base, line } };
    if (fill === buf.length) {
      if (buf.length * 2 <= MAX_LINE) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, fill);
        buf = bigger;
      } else {
        // One line longer than MAX_LINE: skip to its end.
        skipping = true;
        base += fill;
        fill = 0;
      }
    }
    const { bytesRead } = await fh.read(buf, fill, Math.min(buf.length - fill, size - base - fill), base + fill);
    if (bytesRead === 0) break;
    fill += bytesRead;
    out.bytesScanned += bytesRead;
    const lastNl = buf.lastIndexOf(10, fill - 1);
    if (lastNl < 0) continue; // no complete line yet: read more
    let from = 0;
    if (skipping) {
      from = buf.indexOf(10) + 1; // the end of the skipped line
      line++;
      skipping = false;
    }
    // `line` counts the complete lines before byte `base + counted`.
    let counted = from;
    let pos = from;
    const next = candidateFinder(buf, lastNl + 1, needle, pattern);
    while (pos <= lastNl) {
      const hitAt = next(pos);
      if (hitAt < 0) break;
      const lineStart = buf.lastIndexOf(10, hitAt) + 1;
      const lineEnd = buf.indexOf(10, hitAt);
      line += countLines(buf, counted, lineStart);
      const lineNo = line + 1;
      line++;
      counted = lineEnd + 1;
      pos = lineEnd + 1;
      out.decoded++;
      const hit = decodeAndMatch(buf.subarray(lineStart, lineEnd), q, filter, lineNo);
      if (!hit) continue;
      out.hits.push(hit);
      if (out.hits.length >= limit) {
        const at = base + pos;
        return { ...out, bytesScanned: at - start.offset, next: at < size ? { offset: at, line } : null };
      }
    }
    line += countLines(buf, counted, lastNl + 1);
    // Keep the incomplete last line for the next read.
    const rest = fill - (lastNl + 1);
    buf.copy(buf, 0, lastNl + 1, fill);
    base += lastNl + 1;
    fill = rest;
    if (base - start.offset >= budget && base < size) {
      return { ...out, bytesScanned: base - start.offset, next: { offset: base, line } };
    }
  }
  return { ...out, bytesScanned: size - start.offset };
}

/** A line decoded and matched: the hit it makes, or null (no entry, filtered out, no match). */
export function decodeAndMatch(raw: Buffer, q: PreparedQuery, filter: EntryFilter, lineNo: number): SearchHit | null {
  let entry: unknown;
  try {
    entry = JSON.parse(raw.toString('utf8'));
  } catch {
    return null; // a torn line is no entry: nothing to open
  }
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return null;
  const e = entry as Record<string, unknown>;
  const id = e['id'];
  const kind = e['kind'];
  const ts = e['ts'];
  if (typeof id !== 'string' || typeof kind !== 'string' || typeof ts !== 'string') return null;
  if (filter.kinds && !filter.kinds.has(kind)) return null;
  if (filter.from !== null && ts < filter.from) return null;
  if (filter.to !== null && ts > filter.to) return null;
  const m = matchEntry(e, q);
  return m ? { entryId: id, kind, line: lineNo, ts, ...m } : null;
}
