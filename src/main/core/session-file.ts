import { closeSync, readSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { SESSION_EXT } from '../../shared/session-key';
import { isObject } from './entry-types';
import type { SessionFile } from './home';
import { openRegularFile, realPathOf, type OpenedFile } from './safe-open';

/**
 * Which files of a home may be read as sessions (docs/security.md, "Links").
 *
 * A file reached through no link is read whatever its bytes (a damaged ledger is
 * shown with its warnings, never refused) as long as it is a regular file. A file
 * reached through a link (the session file, or a folder on its way, leads out of
 * the home's own tree) stands for a session only when its target is a regular
 * `*.jsonl` file whose line 1 is a header with `session_id` equal to the name the
 * link has in the home (§1: the stem equals the header's session_id). So a link to
 * `/etc/passwd` or to another session's ledger is listed with the reason and
 * never opened: no byte of it is served, and a branch never writes through it.
 */

/** A session path that may not be read: the reason is shown in the library. */
export class NotASessionError extends Error {
  readonly code = 'ENOTSESSION';
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(reason);
    this.name = 'NotASessionError';
  }
}

export interface OpenedSessionFile extends OpenedFile {
  /** The file's real path (links resolved): what was checked, and what a branch may write to. */
  realPath: string;
  /** True when a link stood on the way from the home to the file. */
  linked: boolean;
}

/** How much of line 1 a linked target may need to show its header (system prompt and tools). */
const MAX_HEADER_BYTES = 4 * 1024 * 1024;

/** The home a session file was found under (its path minus its key). */
function homeOf(file: SessionFile): string {
  const rel = join(...file.key.split('/'));
  return file.path.endsWith(rel) ? file.path.slice(0, file.path.length - rel.length) : file.path;
}

/** Line 1 of an open file, read in growing steps up to MAX_HEADER_BYTES; null when it has no `\n` by then. */
function firstLine(fd: number): Buffer | null {
  let buf = Buffer.allocUnsafe(64 * 1024);
  let have = 0;
  for (;;) {
    const n = readSync(fd, buf, have, buf.length - have, have);
    const nl = buf.subarray(have, have + n).indexOf(10);
    if (nl >= 0) return buf.subarray(0, have + nl);
    have += n;
    if (n === 0 || have >= MAX_HEADER_BYTES) return null;
    if (have === buf.length) {
      const bigger = Buffer.allocUnsafe(Math.min(MAX_HEADER_BYTES, buf.length * 4));
      buf.copy(bigger, 0, 0, have);
      buf = bigger;
    }
  }
}

/** Line 1 of `fd` as a header entry (a JSON object of kind `header`), or null. */
function headerOf(fd: number): Record<string, unknown> | null {
  const line = firstLine(fd);
  if (!line) return null;
  try {
    const v: unknown = JSON.parse(line.toString('utf8'));
    return isObject(v) && v['kind'] === 'header' ? v : null;
  } catch {
    return null;
  }
}

/**
 * Line 1 of `fd` when it is a ledger entry (§2: every line has `id`, `parent_id`, `ts`, `prev_hash`
 * and `kind`; line 1's `prev_hash` is null), else null. A header is not required: a ledger whose
 * header is missing is still shown, with its warnings, as in a home.
 */
function firstEntryOf(fd: number): Record<string, unknown> | null {
  const line = firstLine(fd);
  if (!line) return null;
  try {
    const v: unknown = JSON.parse(line.toString('utf8'));
    if (!isObject(v)) return null;
    const ok =
      typeof v['id'] === 'string' &&
      typeof v['kind'] === 'string' &&
      typeof v['ts'] === 'string' &&
      v['prev_hash'] === null &&
      (v['parent_id'] === null || typeof v['parent_id'] === 'string');
    return ok ? v : null;
  } catch {
    return null;
  }
}

/** True when line 1 of `fd` is a header naming `sessionId`. */
function headerNames(fd: number, sessionId: string): boolean {
  return headerOf(fd)?.['session_id'] === sessionId;
}

/**
 * The largest file opened by path. The reader keeps an index of every entry in memory (about a
 * fifth of the file's size: docs/performance.md) in a worker whose heap stops at 2 GiB; a file
 * past this would end that worker instead of opening.
 */
export const MAX_OPENED_FILE_BYTES = 4 * 1024 ** 3;

/** A file opened by path that was checked and may be read as a session. */
export interface CheckedLedgerFile extends OpenedSessionFile {
  /** The header's `session_id`, or null when it has none that is a string. */
  sessionId: string | null;
}

/**
 * Opens a file the user named by path (File → Open…, `serve --file`) as a ledger, never blocking:
 * links are followed (the user chose the path), but it must be a regular file of at most
 * `maxBytes` whose line 1 is a ledger entry (§2). Throws NotRegularFileError (FIFO, directory,
 * device, link loop), NotASessionError (not a ledger, too big) or the file system's error; the
 * message names the file and never quotes its content.
 */
export function openLedgerFile(path: string, maxBytes = MAX_OPENED_FILE_BYTES): CheckedLedgerFile {
  const realPath = realPathOf(path);
  const opened = openRegularFile(realPath);
  try {
    if (opened.stat.size > maxBytes) {
      throw new NotASessionError(
        path,
        `${path} is ${gib(opened.stat.size)}, more than the ${gib(maxBytes)} a file opened by path may have (its index must fit in memory); it is not read`,
      );
    }
    const first = firstEntryOf(opened.fd);
    if (!first) {
      throw new NotASessionError(
        path,
        `${path} is not a vak ledger (its line 1 is not a ledger entry with id, parent_id, ts, prev_hash and kind); it is not read`,
      );
    }
    const id = first['kind'] === 'header' ? first['session_id'] : null;
    return { ...opened, realPath, linked: realPath !== path, sessionId: typeof id === 'string' ? id : null };
  } catch (e) {
    closeSync(opened.fd);
    throw e;
  }
}

/** A size in GiB, or bytes when small (the limits tests set are). */
function gib(n: number): string {
  return n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)} GiB` : `${n} bytes`;
}

/**
 * Opens a session file for reading under the rule above, never blocking: throws
 * NotRegularFileError (FIFO, device, directory, link loop…), NotASessionError (a link to
 * something that is not this session's ledger) or the file system's error.
 */
export function openSessionFile(file: SessionFile): OpenedSessionFile {
  if (file.opened) return openLedgerFile(file.path);
  const realPath = realPathOf(file.path);
  let homeReal: string;
  try {
    homeReal = realpathSync(homeOf(file));
  } catch {
    homeReal = homeOf(file);
  }
  const linked = realPath !== join(homeReal, ...file.key.split('/'));
  const opened = openRegularFile(realPath);
  if (!linked) return { ...opened, realPath, linked };
  try {
    if (!realPath.endsWith(SESSION_EXT) || !headerNames(opened.fd, file.sessionId)) {
      throw new NotASessionError(
        file.path,
        `a link to ${realPath}, which is not a ledger of session ${file.sessionId} (its line 1 is not that session's header); it is not read`,
      );
    }
  } catch (e) {
    closeSync(opened.fd);
    throw e;
  }
  return { ...opened, realPath, linked };
}
