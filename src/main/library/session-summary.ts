import { closeSync, lstatSync, readSync, type Stats } from 'node:fs';
import type { LockState, SessionSummary } from '../../shared/api';
import { oneLine } from '../core/entry-preview';
import { isControlSet, isObject } from '../core/entry-types';
import { cwdMatchesFolder, type SessionFile } from '../core/home';
import { Ledger } from '../core/ledger';
import { readLockTable, type LockTable } from '../core/proc-locks';
import { NotASessionError, openSessionFile } from '../core/session-file';
import { NotRegularFileError } from '../core/safe-open';

/**
 * A session's library row (the API's `SessionSummary`, a view-model: it lives beside the
 * library, out of the pure core) from its head and tail only. Listing thousands of
 * sessions must not read whole files, so this reads a few KiB at each end
 * (growing only while the header, the first directive or a last complete line
 * is still missing) and estimates the entry count from the lines it saw.
 *
 * It never takes the agent's lock, not even to probe it: whether an agent holds the
 * file comes from the kernel's lock table (proc-locks.ts). It opens nothing that is
 * not a regular file, and follows a link only to its own session's ledger
 * (session-file.ts): anything else is listed with the reason, unread.
 */

export interface SummaryOptions {
  /** First read at the head; doubled while the header or first directive is missing. */
  headBytes?: number;
  maxHeadBytes?: number;
  /** First read at the tail; grown while no complete line with a `ts` is found. */
  tailBytes?: number;
  maxTailBytes?: number;
}

export interface SummaryRead {
  summary: SessionSummary;
  /** Bytes actually read from the file (for the library's bytes-read figure). */
  bytesRead: number;
}

const TITLE_MAX = 120;

/** Parses one JSON line into an object, or null (damaged lines are expected here). */
function parseLine(bytes: Buffer): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(bytes.toString('utf8'));
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/** Complete (`\n`-ended) lines of `buf` starting at `from`, as subarrays without `\n`. */
function completeLines(buf: Buffer, from = 0): Buffer[] {
  const out: Buffer[] = [];
  let start = from;
  for (let nl = buf.indexOf(10, start); nl >= 0; nl = buf.indexOf(10, start)) {
    out.push(buf.subarray(start, nl));
    start = nl + 1;
  }
  return out;
}

/** A title on one line: whitespace collapsed, clipped to TITLE_MAX code points. */
export function oneLineTitle(text: string): string {
  return oneLine(text, TITLE_MAX);
}

/** §4: the text of a directive (a user message without meta.control), or null. */
export function directiveText(e: Record<string, unknown>): string | null {
  if (e['kind'] !== 'message') return null;
  const meta = e['meta'];
  if (isObject(meta) && isControlSet(meta['control'])) return null;
  const m = e['message'];
  if (!isObject(m) || m['role'] !== 'user' || !Array.isArray(m['content'])) return null;
  for (const b of m['content']) {
    if (isObject(b) && b['type'] === 'text' && typeof b['text'] === 'string') return b['text'];
  }
  return null;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** Reads `length` bytes at `offset` (short only at end of file). */
function readAt(fd: number, offset: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buf, done, length - done, offset + done);
    if (n === 0) break;
    done += n;
  }
  return buf.subarray(0, done);
}

/** A row for a file that is listed but not read; null when the file is gone (no row). */
function unreadableRow(file: SessionFile, e: unknown): SummaryRead | null {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return null;
  const reason =
    e instanceof NotRegularFileError || e instanceof NotASessionError
      ? e.message
      : `cannot be read: ${e instanceof Error ? e.message : String(e)}`;
  let st: Stats | null = null;
  try {
    st = lstatSync(file.path);
  } catch (x) {
    // A folder on the way that is a link loop: the file is there as far as anyone can say, and refused.
    if ((x as NodeJS.ErrnoException).code !== 'ELOOP') return null;
  }
  return {
    bytesRead: 0,
    summary: {
      key: file.key,
      agent: file.agent,
      cwdHash: file.cwdHash,
      cwd: null,
      cwdMismatch: false,
      sessionId: file.sessionId,
      title: null,
      model: null,
      firstTs: null,
      lastTs: null,
      entries: 0,
      entriesExact: false,
      branches: null,
      warnings: null,
      tailUnterminated: false,
      sizeBytes: st?.isFile() ? st.size : 0,
      mtimeMs: st?.mtimeMs ?? 0,
      lock: 'unknown',
      unreadable: reason,
      parentSession: null,
      ...(file.opened ? { openedPath: file.path } : {}),
    },
  };
}

/**
 * A session's summary from its head and tail; null only when the file is gone. A file
 * that may not be read (not regular, a link to something else, an I/O error) gets a row
 * that says why. With `cached` of the same size and mtime nothing is read: only the lock
 * state is looked up in `locks` (the listing reads /proc/locks once for all files).
 */
export function readSessionSummary(
  file: SessionFile,
  opts: SummaryOptions = {},
  cached?: SessionSummary,
  locks: LockTable | null = readLockTable(),
): SummaryRead | null {
  let fd: number;
  let st: Stats;
  try {
    ({ fd, stat: st } = openSessionFile(file));
  } catch (e) {
    return unreadableRow(file, e);
  }
  try {
    const lock: LockState = locks ? locks.stateOfFd(fd) : 'unknown';
    if (cached && cached.unreadable === null && st.size === cached.sizeBytes && st.mtimeMs === cached.mtimeMs) {
      return { summary: lock === cached.lock ? cached : { ...cached, lock }, bytesRead: 0 };
    }
    return summarize(fd, st, file, opts, lock);
  } catch (e) {
    return unreadableRow(file, e); // a read error (EIO): a row that says so rather than a crash
  } finally {
    closeSync(fd);
  }
}

function summarize(fd: number, st: Stats, file: SessionFile, opts: SummaryOptions, lock: LockState): SummaryRead {
  const size = st.size;
  let bytesRead = 0;

  // Head: grow until line 1 is complete and the first directive is seen (or the cap).
  let want = Math.min(size, opts.headBytes ?? 8 * 1024);
  const maxHead = Math.max(want, opts.maxHeadBytes ?? 256 * 1024);
  let head = Buffer.alloc(0);
  let lines: Buffer[];
  let title: string | null;
  for (;;) {
    const more = readAt(fd, head.length, want - head.length);
    bytesRead += more.length;
    head = Buffer.concat([head, more]);
    lines = completeLines(head);
    title = null;
    for (let k = 1; k < lines.length && title === null; k++) {
      const e = parseLine(lines[k]);
      const t = e ? directiveText(e) : null;
      if (t !== null) title = oneLineTitle(t);
    }
    if (head.length >= size || head.length >= maxHead || (lines.length > 0 && title !== null)) break;
    want = Math.min(size, maxHead, want * 4);
  }

  // When the tail window would reach the head anyway, read the rest: the figures become exact.
  if (head.length < size && size - head.length <= (opts.tailBytes ?? 4 * 1024)) {
    const rest = readAt(fd, head.length, size - head.length);
    bytesRead += rest.length;
    head = Buffer.concat([head, rest]);
    lines = completeLines(head);
  }

  const first = lines.length > 0 ? parseLine(lines[0]) : null;
  const header = first && first['kind'] === 'header' ? first : null;
  // The first line's time, or the next readable one when line 1 is damaged.
  let firstTs = str(first?.['ts']);
  for (let k = 1; k < Math.min(4, lines.length) && firstTs === null; k++) firstTs = str(parseLine(lines[k])?.['ts']);

  const whole = head.length >= size;
  let tailLines: Buffer[] = whole ? lines : [];
  if (!whole) {
    let tailWant = opts.tailBytes ?? 4 * 1024;
    const maxTail = opts.maxTailBytes ?? 1024 * 1024;
    for (;;) {
      const start = Math.max(head.length, size - tailWant);
      // One byte before the window tells whether the window starts on a line start.
      const from = start > 0 ? start - 1 : 0;
      const tail = readAt(fd, from, size - from);
      bytesRead += tail.length;
      const firstLine = start === 0 || tail[0] === 10 ? 1 : tail.indexOf(10) + 1;
      tailLines = firstLine > 0 ? completeLines(tail, firstLine) : [];
      if (lastTs(tailLines) !== null || start === head.length || tailWant >= maxTail) break;
      tailWant *= 8;
    }
  }
  const last = lastTs(tailLines) ?? lastTs(lines);

  let entries: number;
  let exact = false;
  let branches: number | null = null;
  let warnings: number | null = null;
  if (whole) {
    // The whole file is in hand: read it as the reader would, for exact figures.
    const l = Ledger.fromBytes(head);
    entries = l.index.count;
    branches = l.index.branchPoints().length;
    warnings = l.warnings().length;
    exact = true;
  } else {
    const seen = [...lines, ...tailLines];
    const seenBytes = seen.reduce((n, b) => n + b.length + 1, 0);
    entries = seen.length === 0 ? 0 : Math.max(seen.length, Math.round(size / (seenBytes / seen.length)));
  }

  const lastByte = size === 0 ? null : whole ? head[size - 1] : readAt(fd, size - 1, 1)[0];
  if (!whole && size > 0) bytesRead += 1;

  const cwd = header ? str(header['cwd']) : null;
  const ps = header?.['parent_session'];
  const parentSession =
    isObject(ps) && typeof ps['session_id'] === 'string'
      ? { sessionId: ps['session_id'], entryId: str(ps['entry_id']) ?? '', key: null }
      : null;
  return {
    bytesRead,
    summary: {
      key: file.key,
      agent: file.agent,
      cwdHash: file.cwdHash,
      cwd,
      // (An opened file sits in no <cwd-hash> folder: nothing to match.)
      cwdMismatch: !file.opened && cwd !== null && !cwdMatchesFolder(file.cwdHash, cwd),
      sessionId: file.sessionId,
      title,
      model: header ? str(header['model']) : null,
      firstTs,
      lastTs: last,
      entries,
      entriesExact: exact,
      branches,
      warnings,
      tailUnterminated: lastByte !== null && lastByte !== 10,
      sizeBytes: size,
      mtimeMs: st.mtimeMs,
      lock,
      unreadable: null,
      parentSession,
      ...(file.opened ? { openedPath: file.path } : {}),
    },
  };
}

/** The `ts` of the last line that parses with one, walking back. */
function lastTs(lines: Buffer[]): string | null {
  for (let k = lines.length - 1; k >= 0; k--) {
    const ts = str(parseLine(lines[k])?.['ts']);
    if (ts !== null) return ts;
  }
  return null;
}
