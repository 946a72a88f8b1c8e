import { closeSync, constants, fsyncSync, writeSync } from 'node:fs';
import { FileSource } from './byte-source';
import { tryLockExclusive, unlock } from './flock';
import { Ledger } from './ledger';
import { openRegularFile } from './safe-open';
import { uuidv7 } from './uuidv7';

/** Why a branch was refused. Nothing was written in any of these cases. */
export type BranchRefusal = 'locked' | 'unknown_parent' | 'empty_text' | 'too_large' | 'unreadable' | 'changed';

/**
 * The largest directive a branch writes, in UTF-8 bytes (1 MiB): a directive is what a person
 * types or pastes, and the line is built, written and read back around the agent's lock, which the
 * agent waits for. The CLI reads no more than this of a `--text-file`.
 */
export const MAX_DIRECTIVE_BYTES = 1 << 20;

export class BranchError extends Error {
  constructor(
    readonly reason: BranchRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'BranchError';
  }
}

export interface BranchResult {
  id: string;
  parentId: string;
  line: number;
  offset: number;
}

/** What one branch did while it held the agent's lock (the bench and the work-count tests read it). */
export interface BranchLockStats {
  /** Ledger bytes read while the lock was held: only what was appended since the last read, plus a few. */
  bytesReadUnderLock: number;
  /** Wall time the lock was held (for the bench; tests count bytes, never time). */
  lockHeldMs: number;
  /** Times the lock was taken (more than 1 when the file grew or changed and was caught up outside it). */
  attempts: number;
}

export interface BranchOptions {
  now?: Date;
  /** Filled in with what happened under the lock. */
  stats?: BranchLockStats;
}

/** Appended bytes the writer will read while holding the lock; more are read outside it first. */
const MAX_APPENDED_UNDER_LOCK = 1 << 20;
const ATTEMPTS = 4;

/**
 * §7, the explorer's only write: append one directive under `parentId` to an open ledger.
 *
 * Outside the lock the ledger is brought up to date (`refresh`, which may read a lot).
 * Under the agent's flock it reads only the bytes appended since then (a cheap
 * append-only check, no whole-file read), checks the parent, links to the last physical
 * line (closing a torn tail with `\n` in the same write), writes once with O_APPEND,
 * fsyncs, reads back the new line by its offset, and unlocks: milliseconds whatever the
 * size. The file written is the very file the ledger reads (same device and inode), and
 * a regular one. The new line is not fed to `ledger`: its owner's next refresh reads it.
 */
export async function appendBranch(
  ledger: Ledger,
  parentId: string,
  text: string,
  opts: BranchOptions = {},
): Promise<BranchResult> {
  if (text.trim().length === 0) throw new BranchError('empty_text', 'the directive is empty; nothing was written');
  const textBytes = Buffer.byteLength(text, 'utf8');
  if (textBytes > MAX_DIRECTIVE_BYTES) {
    throw new BranchError(
      'too_large',
      `the directive is ${textBytes} bytes, more than the ${MAX_DIRECTIVE_BYTES} a branch takes; nothing was written`,
    );
  }
  const source = ledger.source;
  if (!(source instanceof FileSource)) throw new BranchError('unreadable', 'only a ledger file can be branched');
  const stats = opts.stats ?? { bytesReadUnderLock: 0, lockHeldMs: 0, attempts: 0 };
  Object.assign(stats, { bytesReadUnderLock: 0, lockHeldMs: 0, attempts: 0 });

  let fd: number;
  try {
    fd = openRegularFile(source.path, constants.O_WRONLY | constants.O_APPEND).fd;
  } catch (e) {
    throw new BranchError('unreadable', `cannot open ${source.path} for appending: ${(e as Error).message}`);
  }
  try {
    const mine = source.identity();
    const target = FileSource.fromFd(fd, source.path).identity();
    if (mine.dev !== target.dev || mine.ino !== target.ino) {
      throw new BranchError(
        'changed',
        `${source.path} is no longer the file that was read (replaced or relinked); nothing was written — reopen it`,
      );
    }
    // The whole line but its prev_hash, made before the lock is taken: under it, only checks and the write.
    const line = prepareLine(parentId, text, opts.now ?? new Date());
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      await ledger.refresh(); // outside the lock: catch up on whatever the agent wrote
      stats.attempts = attempt;
      let done: Written | null;
      try {
        done = appendUnderLock(fd, ledger, line, stats);
      } catch (e) {
        // The reading no longer describes the file: read it again (outside the lock) before saying so.
        if (e instanceof BranchError && e.reason === 'changed') await ledger.reload('rewritten');
        throw e;
      }
      if (done) return readBack(ledger, line, done);
    }
    throw new BranchError(
      'changed',
      'the file kept growing or changing under the lock; nothing was written — try again',
    );
  } finally {
    closeSync(fd);
  }
}

/** A branch's line made before the lock: all of it but the prev_hash, which links to the file's last line then. */
interface PreparedLine {
  id: string;
  parentId: string;
  /** `{"id":…,"parent_id":…,"ts":…,"prev_hash":` */
  head: Buffer;
  /** `,"kind":"message","message":{…}}\n` */
  tail: Buffer;
}

/** What was written under the lock: the line's bytes, where they start, and its line number. */
interface Written {
  line: Buffer;
  offset: number;
  lineNo: number;
}

/** The line of §7 (keys in its order: JSON.stringify of that entry gives the same bytes). */
function prepareLine(parentId: string, text: string, now: Date): PreparedLine {
  const id = uuidv7(now.getTime());
  const head = `{"id":${JSON.stringify(id)},"parent_id":${JSON.stringify(parentId)},"ts":${JSON.stringify(now.toISOString())},"prev_hash":`;
  const message = { role: 'user', content: [{ type: 'text', text }] };
  const tail = `,"kind":"message","message":${JSON.stringify(message)}}\n`;
  return { id, parentId, head: Buffer.from(head, 'utf8'), tail: Buffer.from(tail, 'utf8') };
}

/**
 * One attempt with the lock held; null when the ledger must be caught up outside the lock first.
 * Before writing, the branch proves what it stands on: the parent's line, at the offset read, still
 * holds that entry, and the file still ends with the line the new one links to. Otherwise the
 * file was rewritten since it was read: refused, nothing written.
 */
function appendUnderLock(fd: number, ledger: Ledger, prepared: PreparedLine, stats: BranchLockStats): Written | null {
  if (tryLockExclusive(fd) === 'busy') {
    throw new BranchError(
      'locked',
      'an agent holds the lock on this session (it is running); nothing was written — try again when it stops',
    );
  }
  const t0 = performance.now();
  const read0 = ledger.source.bytesRead;
  try {
    if (ledger.readAppendedSync(MAX_APPENDED_UNDER_LOCK) === null) return null;
    const parent = ledger.indexOf(prepared.parentId);
    if (parent === undefined) {
      throw new BranchError(
        'unknown_parent',
        `entry ${prepared.parentId} is not an entry of this ledger; nothing was written`,
      );
    }
    if (!ledger.lineHoldsEntry(parent)) {
      throw new BranchError(
        'changed',
        `${ledger.path}: line ${ledger.index.line[parent]} no longer holds entry ${prepared.parentId} (the file was rewritten since it was read); nothing was written — it is read again`,
      );
    }
    const tailProblem = ledger.tailDiffers();
    if (tailProblem !== null) {
      throw new BranchError(
        'changed',
        `${ledger.path}: ${tailProblem} (the file was rewritten since it was read); nothing was written — it is read again`,
      );
    }
    const tail = ledger.lastPhysicalLine();
    const line = Buffer.concat([prepared.head, Buffer.from(JSON.stringify(tail.hash), 'utf8'), prepared.tail]);
    const bytes = tail.torn ? Buffer.concat([Buffer.from('\n'), line]) : line;
    // Under the lock nobody else appends: the file ends where the ledger's reading ends (checked above).
    const offset = ledger.bytesRead + (tail.torn ? 1 : 0);
    const n = writeSync(fd, bytes, 0, bytes.length);
    if (n !== bytes.length) throw new Error(`short write: ${n} of ${bytes.length} bytes`);
    fsyncSync(fd);
    return { line, offset, lineNo: ledger.linesRead + (tail.torn ? 2 : 1) };
  } finally {
    stats.bytesReadUnderLock += ledger.source.bytesRead - read0;
    unlock(fd);
    stats.lockHeldMs += performance.now() - t0;
  }
}

/** §7: the line is read back (after the lock is released) by its offset. */
function readBack(ledger: Ledger, prepared: PreparedLine, w: Written): BranchResult {
  const back = Buffer.allocUnsafe(w.line.length);
  const got = ledger.source.readInto(back, w.offset, w.line.length);
  if (got !== w.line.length || !back.equals(w.line)) {
    throw new Error(`read-back failed: the line at byte ${w.offset} is not the one written for ${prepared.id}`);
  }
  return { id: prepared.id, parentId: prepared.parentId, line: w.lineNo, offset: w.offset };
}

/** The CLI's branch: opens the ledger (outside the lock), appends, closes. */
export async function appendBranchToFile(
  path: string,
  parentId: string,
  text: string,
  opts: BranchOptions = {},
): Promise<BranchResult> {
  let ledger: Ledger;
  try {
    ledger = await Ledger.open(path);
  } catch (e) {
    throw new BranchError('unreadable', `cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return await appendBranch(ledger, parentId, text, opts);
  } finally {
    ledger.close();
  }
}
