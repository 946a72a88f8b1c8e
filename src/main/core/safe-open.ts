import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';

/**
 * Opening a path a user can name (a session file, a link in the home) without
 * ever blocking: a FIFO opened for reading waits for a writer, forever, and a
 * device may do anything on open. So: stat first (stat never blocks) and refuse
 * what is not a regular file; then open with O_NONBLOCK (a FIFO swapped in after
 * the stat opens at once instead of hanging) and check the descriptor again.
 */

/** A path that names something other than a regular file (nothing was read). */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
  constructor(
    readonly path: string,
    readonly fileType: string,
  ) {
    super(`${path} is ${fileType}, not a regular file; it is not read`);
    this.name = 'NotRegularFileError';
  }
}

/** What a path is whose links lead back to themselves, in words: ELOOP is a refusal, not a failure. */
export const LINK_LOOP = 'a symbolic link loop (ELOOP: too many levels of symbolic links)';

/** Runs `f` on `path`; a link loop on the way is a NotRegularFileError that says so. */
function refuseLoop<T>(path: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw new NotRegularFileError(path, LINK_LOOP);
    throw e;
  }
}

/** The real path of `path` (links resolved); throws NotRegularFileError for a link loop. */
export function realPathOf(path: string): string {
  return refuseLoop(path, () => realpathSync(path));
}

/** What a stat says a path is, in words (for warnings). */
export function fileTypeOf(st: Stats): string {
  if (st.isFile()) return 'a regular file';
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

export interface OpenedFile {
  fd: number;
  stat: Stats;
}

/**
 * Opens a regular file (following links) for reading, or `flags` (e.g. O_WRONLY|O_APPEND),
 * without ever blocking; throws NotRegularFileError for a FIFO, device, socket, directory or link loop.
 */
export function openRegularFile(path: string, flags: number = constants.O_RDONLY): OpenedFile {
  const before = refuseLoop(path, () => statSync(path));
  if (!before.isFile()) throw new NotRegularFileError(path, fileTypeOf(before));
  const fd = refuseLoop(path, () => openSync(path, flags | constants.O_NONBLOCK | constants.O_NOCTTY));
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new NotRegularFileError(path, fileTypeOf(stat));
    return { fd, stat };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** True when `e` says a path is not a regular file (so it was never opened for reading). */
export function isNotRegular(e: unknown): e is NotRegularFileError {
  return e instanceof NotRegularFileError;
}

/** The app's own data files (settings, recent files) are a few lines: larger ones are not read. */
export const MAX_DATA_FILE_BYTES = 1 << 20;

/**
 * A small regular file's bytes (the app's own data files: prices, settings, recent files). O_NONBLOCK:
 * a FIFO put at this path must not hang the backend (it is refused after fstat); a symbolic link
 * to a regular file is followed. Throws what open throws (ENOENT, ELOOP, EACCES).
 */
export function readSmallRegularFile(path: string, maxBytes: number): Buffer | 'not regular' | 'too large' {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return 'not regular';
    if (st.size > maxBytes) return 'too large';
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}
