import { createHash, randomBytes } from 'node:crypto';
import { closeSync, readFileSync, type Stats } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileSource } from '../core/byte-source';
import { Ledger } from '../core/ledger';
import type { OpenOptions } from '../core/ledger-options';
import { restoreIndexAhead, snapshotMismatch, SnapshotInvalidError } from '../core/ledger-snapshot';
import { isNotRegular, openRegularFile } from '../core/safe-open';
import { decodeSnapshot, encodeSnapshotParts, type KeptExtras, type SnapshotKey } from '../core/snapshot-codec';
import type { KeptLayout } from '../core/tree-layout';
import type { TurnColumns } from '../core/kept-turns';
import { buildTurnCacheAhead } from '../core/turn-cache';
import type { WorkFold } from '../core/work-fold';

export interface IndexStoreOptions {
  /** Sessions smaller than this open in a blink: nothing is kept for them (default 1 MiB). */
  minBytes?: number;
  /** Total size of the folder; the least recently used kept indexes are removed past it (default 512 MiB). */
  maxTotalBytes?: number;
}

const EXT = '.vkix';
/** A temp file older than this was left by a process that died while writing: removed when pruning. */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** A kept index read ahead and not opened within this long is let go (its memory back). */
const AHEAD_KEPT_MS = 60_000;
/** Bigger kept indexes are not read ahead: that memory and time are spent only when asked. */
const AHEAD_MAX_BYTES = 64 << 20;
/** How long a read ahead waits for the backend to be idle before giving up. */
const AHEAD_WAIT_MS = 10_000;

type Decoded = ReturnType<typeof decodeSnapshot>;

/**
 * A kept index read, checksummed and decoded before any open asked for it (IndexStore.readAhead),
 * with the identity of the file its bytes came from: used only while that file is still the same.
 */
interface ReadAhead {
  file: string;
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  decoded: Decoded;
}

const sameFile = (a: ReadAhead, st: Stats): boolean =>
  a.dev === st.dev && a.ino === st.ino && a.size === st.size && a.mtimeMs === st.mtimeMs && a.ctimeMs === st.ctimeMs;

/** The next turn of the event loop (a step of the read ahead yields to any call between steps). */
const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

/** One line on stderr: why a kept index was not used ("with the reason logged"). */
function notUsed(realPath: string, reason: string): void {
  console.warn(`vak-explorer: kept index of ${realPath} not used (${reason}); reading the file whole`);
}

/**
 * Verified indexes of sessions, kept in the app's user data folder (never beside a ledger),
 * one file per ledger named by the sha256 of its real path, so that a reopen reads only
 * what was appended since. A kept index is used only for the
 * very file it was read from: same device and inode, at least as long, and the bytes of its
 * last line still hashing to the same value; a damaged, foreign or outdated one is ignored.
 */
/** A ledger read from its kept index, and what was kept with it (the work fold, the turns' costs). */
export interface KeptReading {
  ledger: Ledger;
  work: WorkFold | null;
  /** With the number of entries they were kept for (the kept index's count). */
  turns: { columns: TurnColumns; entries: number } | null;
  /** The tree layout of the kept entries (TreeLayout.fromKept places the ones read since). */
  layout: KeptLayout | null;
}

export class IndexStore {
  readonly minBytes: number;
  readonly maxTotalBytes: number;
  /** The most recently used kept index, read ahead of its open (readAhead); taken by the next resume. */
  private ahead: ReadAhead | null = null;
  /** Counts resumes: a read ahead that sees one start gives up (the user chose what to open). */
  private resumes = 0;
  /** Work counts: kept index bytes read by resumes, and resumes that took a read ahead instead. */
  readonly stats = { keptBytesRead: 0, aheadTaken: 0 };

  constructor(
    readonly dir: string,
    opts: IndexStoreOptions = {},
  ) {
    this.minBytes = opts.minBytes ?? 1 << 20;
    this.maxTotalBytes = opts.maxTotalBytes ?? 512 << 20;
  }

  /** Where the kept index of the ledger at `realPath` lives. */
  fileFor(realPath: string): string {
    return join(this.dir, createHash('sha256').update(realPath).digest('hex') + EXT);
  }

  /**
   * The ledger read from its kept index plus the bytes appended since, or null (nothing
   * read but the kept last line) when there is no usable kept index: the caller reads whole.
   */
  async resume(source: FileSource, key: SnapshotKey, opts: OpenOptions = {}): Promise<KeptReading | null> {
    const file = this.fileFor(key.realPath);
    this.resumes++;
    const ahead = this.ahead;
    this.ahead = null;
    let bytes: Buffer | null = null;
    let decoded: Decoded | null = null;
    try {
      // Never blocks: a FIFO put where a kept index belongs is refused, not opened for reading.
      const { fd, stat: st } = openRegularFile(file);
      try {
        if (st.size > this.maxTotalBytes) return null;
        // Read ahead from this very file, unchanged since (its checksum was checked then).
        if (ahead !== null && ahead.file === file && sameFile(ahead, st)) {
          decoded = ahead.decoded;
          this.stats.aheadTaken++;
        } else {
          bytes = readFileSync(fd);
          this.stats.keptBytesRead += bytes.length;
        }
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      if (isNotRegular(e)) notUsed(key.realPath, `${file} is not a regular file`);
      return null; // none kept (or unreadable): a first open
    }
    if (decoded === null) {
      try {
        decoded = decodeSnapshot(bytes as Buffer);
      } catch (e) {
        notUsed(key.realPath, (e as Error).message);
        await unlink(file).catch(() => undefined);
        return null;
      }
    }
    const { key: kept, snapshot, work, turns, layout } = decoded;
    let reason: string | null;
    if (kept.realPath !== key.realPath) reason = `it belongs to ${kept.realPath}`;
    else if (kept.dev !== key.dev || kept.ino !== key.ino) reason = 'the file was replaced (device or inode changed)';
    else reason = snapshotMismatch(source, snapshot);
    if (reason !== null) {
      notUsed(key.realPath, reason);
      return null;
    }
    try {
      const ledger = await Ledger.resume(source, snapshot, opts);
      const now = new Date();
      await utimes(file, now, now).catch(() => undefined); // recently used: pruned last
      // What was derived from the kept entries names them by position: only for that very reading.
      const n = snapshot.count;
      const same = ledger.index.count >= n && (n === 0 || ledger.index.ids[n - 1] === snapshot.ids[n - 1]);
      return same
        ? { ledger, work, turns: turns === null ? null : { columns: turns, entries: n }, layout }
        : { ledger, work: null, turns: null, layout: null };
    } catch (e) {
      if (!(e instanceof SnapshotInvalidError)) throw e;
      notUsed(key.realPath, e.message);
      await unlink(file).catch(() => undefined);
      return null;
    }
  }

  /**
   * Reads the most recently used kept index ahead of its open, while `idle()` says nothing waits: its
   * bytes, checksum and decode, its index restored and checked (restoreIndexAhead), its turns' costs
   * read back (buildTurnCacheAhead), each step in its own turn of the event loop. The next `resume` of
   * that ledger takes what was done, if the file is still the one read (device, inode, size, times);
   * any other resume, or AHEAD_KEPT_MS without one, lets it go. A file that fails is left to `resume`,
   * which refuses it as always. Resolves to the ledger path read ahead, or null.
   */
  async readAhead(idle: () => boolean): Promise<string | null> {
    const since = this.resumes;
    const until = Date.now() + AHEAD_WAIT_MS;
    const mayGoOn = async (): Promise<boolean> => {
      await nextTurn();
      while (!idle()) {
        if (Date.now() > until || this.resumes !== since) return false;
        await new Promise((r) => setTimeout(r, 20));
      }
      return this.resumes === since;
    };
    const newest = await this.newestKept();
    if (newest === null || !(await mayGoOn())) return null;
    let identity: Omit<ReadAhead, 'decoded'>;
    let bytes: Buffer;
    try {
      const { fd, stat: st } = openRegularFile(newest);
      try {
        if (st.size > AHEAD_MAX_BYTES || st.size > this.maxTotalBytes) return null;
        const { dev, ino, size, mtimeMs, ctimeMs } = st;
        identity = { file: newest, dev, ino, size, mtimeMs, ctimeMs };
        bytes = readFileSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      return null;
    }
    if (!(await mayGoOn())) return null;
    let decoded: Decoded;
    try {
      decoded = decodeSnapshot(bytes);
    } catch {
      return null; // refused by its open, which says why and removes it
    }
    // Kept under the name of the ledger it says it belongs to, else never taken.
    if (this.fileFor(decoded.key.realPath) !== newest) return null;
    const mine: ReadAhead = { ...identity, decoded };
    this.ahead = mine;
    setTimeout(() => {
      if (this.ahead === mine) this.ahead = null;
    }, AHEAD_KEPT_MS).unref();
    try {
      if (!(await mayGoOn()) || this.ahead !== mine) return decoded.key.realPath;
      restoreIndexAhead(decoded.snapshot);
      if (decoded.turns === null || !(await mayGoOn()) || this.ahead !== mine) return decoded.key.realPath;
      buildTurnCacheAhead(decoded.turns, decoded.snapshot.count);
    } catch (e) {
      if (!(e instanceof SnapshotInvalidError)) throw e;
      // Not restorable: its resume restores it again and refuses it there, saying why.
    }
    return decoded.key.realPath;
  }

  /** The kept index used or written last, or null when there is none. */
  private async newestKept(): Promise<string | null> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    let best: { path: string; mtimeMs: number } | null = null;
    for (const name of names) {
      if (!name.endsWith(EXT)) continue;
      const path = join(this.dir, name);
      const st = await stat(path).catch(() => null);
      if (st?.isFile() && (best === null || st.mtimeMs > best.mtimeMs)) best = { path, mtimeMs: st.mtimeMs };
    }
    return best?.path ?? null;
  }

  /** Removes the kept index of the ledger at `realPath` (it was found not to describe the file). */
  async forget(realPath: string): Promise<void> {
    await unlink(this.fileFor(realPath)).catch(() => undefined);
  }

  /**
   * Keeps `ledger`'s reading of the file `key` (when it is big enough to be worth it):
   * encoded at once, written to a temp file and renamed over the old one (a reader never
   * sees half a file), then the folder is pruned to its size bound. `extras` are kept with it
   * (a work fold whose tip it covers; turn costs naming only entries it covers; else none).
   */
  async keep(
    ledger: Ledger,
    key: SnapshotKey,
    extras: KeptExtras = { work: null, turns: null, layout: null },
  ): Promise<boolean> {
    const snap = ledger.snapshot();
    // By the file's size, not the bytes this reading read (a reopen reads only what was appended).
    if (snap === null || snap.coveredBytes < this.minBytes) return false;
    // Synchronously: the snapshot views the live index. Written in parts, never joined in memory.
    let encoded: ReturnType<typeof encodeSnapshotParts>;
    try {
      encoded = encodeSnapshotParts(snap, key, extras);
    } catch (e) {
      if (e instanceof SnapshotInvalidError) return false; // ids a kept index cannot carry: read whole next time
      throw e;
    }
    const { parts, byteLength } = encoded;
    if (byteLength > this.maxTotalBytes) return false;
    const file = this.fileFor(key.realPath);
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    try {
      await writeFile(temp, parts, { mode: 0o600 });
      await rename(temp, file);
    } catch (e) {
      await unlink(temp).catch(() => undefined);
      throw e;
    }
    await this.prune(file);
    return true;
  }

  /** Removes the least recently used kept indexes past the size bound (never `keepFile`), and stale temp files. */
  private async prune(keepFile: string): Promise<void> {
    const names = await readdir(this.dir);
    const files: { path: string; size: number; mtimeMs: number }[] = [];
    const now = Date.now();
    for (const name of names) {
      const path = join(this.dir, name);
      const st = await stat(path).catch(() => null);
      if (!st?.isFile()) continue;
      if (name.endsWith('.tmp')) {
        if (now - st.mtimeMs > STALE_TEMP_MS) await unlink(path).catch(() => undefined);
      } else if (name.endsWith(EXT)) files.push({ path, size: st.size, mtimeMs: st.mtimeMs });
    }
    let total = files.reduce((sum, f) => sum + f.size, 0);
    files.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const f of files) {
      if (total <= this.maxTotalBytes) break;
      if (f.path === keepFile) continue;
      await unlink(f.path).catch(() => undefined);
      total -= f.size;
    }
  }
}
