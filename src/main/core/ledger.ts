import { hash } from 'node:crypto';
import { FileSource, MemorySource, readRange, type ByteSource } from './byte-source';
import { DeferredHashes } from './deferred-hashes';
import type { LedgerEntry } from './entry-types';
import { feedInSteps, feedSync, readBuffer, YIELD_EVERY } from './feed-bytes';
import { FullNotes } from './full-notes';
import type { WorkEvent } from './work-notes';
import type { LongStrings } from './json-skim';
import { LedgerIndex } from './ledger-index';
import type {
  HashCheckResult,
  LedgerStats,
  OpenOptions,
  RefreshOptions,
  RefreshResult,
  SyncOpenOptions,
} from './ledger-options';
import { captureSnapshot, restoreIndex, restoreReaderEnd, type LedgerSnapshot } from './ledger-snapshot';
import { LineFeeder } from './line-feeder';
import { lineAt, lineHoldsEntry } from './line-readback';
import { LineReader } from './line-reader';
import { ParsedEntries } from './parsed-entries';
import { DerivedCaches } from './per-reading';
import { ReadStamp } from './read-stamp';
import { continuityBroken, tailDiffers, tailLooksKept, tailWarnings } from './read-tail';
import { readAgain, readingDifference } from './reading-check';
import { sortWarnings, type LedgerWarning } from './warnings';

/**
 * An entry read back by its offset is not the entry the index holds there: the file changed
 * under the reading (a rewrite in place, or a kept index that does not describe it). The
 * reading must start over (`Ledger.reload`); nothing of the other line is shown.
 */
export class LedgerChangedError extends Error {
  constructor(
    readonly ledger: Ledger,
    what: string,
  ) {
    super(`${ledger.path} changed under its reading (${what}); it is read again`);
    this.name = 'LedgerChangedError';
  }
}

/** Numbers the readings of every ledger of the process: a generation is never given twice. */
let generations = 0;

/**
 * One open ledger: its index, the reader's warnings, and lazy access to payloads.
 * Reads stream through one reused buffer; `refresh()` reads only appended bytes.
 */
export class Ledger {
  index!: LedgerIndex;
  private reader!: LineReader<FullNotes>;
  private feeder!: LineFeeder;
  /** Parsed entries, the most recently asked for, bounded by their lines' bytes (payloads stay on disk otherwise). */
  private readonly entries: ParsedEntries;
  private readBuf: Buffer | null = null;
  /** Lines indexed by readers before the last reset (a reload starts a new reader). */
  private linesBefore = 0;
  /** Lines the current reader took from a kept index (restored, not parsed). */
  private linesRestored = 0;
  /** The last read stopped at its `maxBytes` before the file's end: bytes pending now are no torn tail. */
  private stoppedShort = false;
  /** The hash check a first read deferred (OpenOptions.deferHashCheck), until it is done. */
  private readonly hashes: DeferredHashes;
  /**
   * Which reading this is: a new number whenever the reading starts over from byte 0 (a reload,
   * a rewrite found, a kept index found wrong), and when a deferred hash check marks entries. What
   * is derived from the entries read is keyed by it (with the entry count where appends matter):
   * an append keeps it, since it changes no entry already read.
   */
  generation = 0;
  /** Every cache derived from this reading (per-reading.ts), for its current generation only. */
  readonly derived = new DerivedCaches();
  /** The file's stamp when the last read began, and when that was (ms): see `refresh`'s `changed`. */
  private readonly stamp: ReadStamp;
  /** Restored from a kept index and not yet checked against the file (`checkReading`). */
  private keptUnchecked = false;
  private checkedBytes = 0;
  /** Times the file broke append-only (shrank, or its last bytes changed) and was reloaded. */
  readonly appendOnlyBreaks: { at: string; reason: 'shrunk' | 'rewritten' }[] = [];

  private constructor(
    readonly source: ByteSource,
    /** bytes_per_token of the Full notes kept while reading (OpenOptions.noteFullCosts), or null for none. */
    private readonly notesBpt: number | null = null,
    private readonly sink: NonNullable<OpenOptions['lineSink']> | null = null,
  ) {
    this.entries = new ParsedEntries(
      source,
      (what) => new LedgerChangedError(this, what),
      (i) => this.reader.notes?.measuresOf(i) ?? null,
    );
    this.stamp = new ReadStamp(source);
    this.hashes = new DeferredHashes({
      source,
      reading: () => ({ reader: this.reader, index: this.index }),
      marked: () => void (this.generation = ++generations),
    });
    this.reset();
  }

  /**
   * Opens and reads a ledger file (index + verified chain). A path is opened only if it
   * is a regular file (NotRegularFileError otherwise); a FileSource comes checked already.
   */
  static async open(path: string | FileSource, opts: OpenOptions = {}): Promise<Ledger> {
    const l = new Ledger(
      typeof path === 'string' ? new FileSource(path) : path,
      opts.noteFullCosts ?? null,
      opts.lineSink ?? null,
    );
    try {
      const inSteps = (opts.maxBytes ?? Infinity) < l.source.size();
      if (opts.deferHashCheck && inSteps) l.hashes.defer(opts.deferredClaimsMax);
      await l.readNew(inSteps && opts.firstBytes !== undefined ? { ...opts, maxBytes: opts.firstBytes } : opts);
    } catch (e) {
      l.close();
      throw e;
    }
    return l;
  }

  /**
   * Continues from a kept reading of the file's start: the
   * snapshot's index and reader state are restored and only the bytes after it are read,
   * as a refresh would. The caller checked the snapshot still matches the file
   * (`snapshotMismatch`). Throws SnapshotInvalidError, leaving `source` open, when the
   * snapshot does not hold together: the caller then reads the file whole.
   */
  static async resume(source: ByteSource, snap: LedgerSnapshot, opts: OpenOptions = {}): Promise<Ledger> {
    const l = new Ledger(source, opts.noteFullCosts ?? null, opts.lineSink ?? null);
    l.index = restoreIndex(snap);
    // Its notes know nothing of the entries restored: a call among them is not "never made".
    l.reader = new LineReader(l.index, l.newNotes(false));
    l.reader.sink = l.sink;
    l.sink?.restart(snap.lines + 1);
    restoreReaderEnd(l.reader, snap);
    l.feeder = new LineFeeder(l.reader, snap.coveredBytes);
    l.linesRestored = snap.lines;
    l.keptUnchecked = true;
    try {
      await l.readNew(opts);
    } catch (e) {
      l.close();
      throw e;
    }
    return l;
  }

  /**
   * The reading so far, up to the last complete line, to keep (null before any complete
   * line). It views the live index: encode it before anything else reads into this ledger.
   */
  snapshot(): LedgerSnapshot | null {
    // A reading not checked against its file is not kept again: it could be a crafted one.
    if (this.keptUnchecked) return null;
    this.hashes.finish();
    return captureSnapshot(this.reader, this.index);
  }

  /** Reads a ledger file synchronously (CLI, tests); a regular file only, as `open` (and see SyncOpenOptions). */
  static openSync(path: string | FileSource, opts: SyncOpenOptions = {}): Ledger {
    const l = new Ledger(typeof path === 'string' ? new FileSource(path) : path, opts.noteFullCosts ?? null);
    try {
      if (opts.deferHashCheck) l.hashes.defer(opts.deferredClaimsMax);
      l.readNewSync();
    } catch (e) {
      l.close();
      throw e;
    }
    return l;
  }

  /** An in-memory ledger (tests, generators). */
  static fromBytes(bytes: Buffer, opts: Pick<OpenOptions, 'noteFullCosts'> = {}): Ledger {
    const l = new Ledger(new MemorySource(bytes), opts.noteFullCosts ?? null);
    l.readNewSync();
    return l;
  }

  /**
   * Feeds chunks as given (tests check every split gives the same result); `deferHashes` reads
   * them without hashing, for a check afterwards (`checkHashes`, or `warnings()`).
   */
  static fromChunks(chunks: Uint8Array[], deferHashes?: { maxClaims?: number }): Ledger {
    const total = Buffer.concat(chunks);
    const l = new Ledger(new MemorySource(total));
    if (deferHashes) l.hashes.defer(deferHashes.maxClaims);
    for (const c of chunks) l.feeder.push(c);
    return l;
  }

  get path(): string {
    return this.source.label;
  }

  /** Bytes read so far (complete lines plus a pending tail). */
  get bytesRead(): number {
    return this.feeder.fedOffset;
  }

  /** What this ledger has read and parsed so far. */
  get stats(): LedgerStats {
    return {
      bytesRead: this.source.bytesRead - this.checkedBytes,
      linesParsed: this.linesBefore + this.reader.lines - this.linesRestored,
      entriesMaterialised: this.entries.materialised,
    };
  }

  /** Bytes read again to check that a reading still describes its file (`checkReading`; not in `stats.bytesRead`). */
  get bytesChecked(): number {
    return this.checkedBytes;
  }

  /** Parsed entries held now, and the bytes of their lines (bounded: see EntryCache). */
  get cachedEntries(): { entries: number; bytes: number } {
    return this.entries.cached;
  }

  private reset(): void {
    if (this.reader) this.linesBefore += this.reader.lines - this.linesRestored;
    this.linesRestored = 0;
    this.generation = ++generations;
    this.keptUnchecked = false;
    this.index = new LedgerIndex();
    this.hashes.clear(); // a reading from byte 0 again hashes as it reads
    this.reader = new LineReader(this.index, this.newNotes(true));
    this.reader.sink = this.sink;
    this.sink?.restart(1);
    this.feeder = new LineFeeder(this.reader, 0);
    this.entries.clear();
  }

  private newNotes(fromStart: boolean): FullNotes | null {
    return this.notesBpt === null ? null : new FullNotes(this.notesBpt, fromStart);
  }

  /** The messages' Full costs noted while reading (OpenOptions.noteFullCosts), or null. */
  get fullNotes(): FullNotes | null {
    return this.reader.notes;
  }

  private buffer(): Buffer {
    this.readBuf ??= readBuffer();
    return this.readBuf;
  }

  private readNewSync(): void {
    feedSync(this.source, this.feeder, this.buffer(), this.stamp.sizeForRead());
  }

  private async readNew(
    { onProgress, maxBytes = Infinity, yieldTo }: OpenOptions = {},
    settled = false,
  ): Promise<void> {
    const settling = settled ? null : this.stamp.settled();
    if (settling) await settling;
    const size = this.stamp.sizeForRead();
    const end = Math.min(size, this.feeder.fedOffset + maxBytes);
    const report =
      onProgress && ((bytesRead: number) => onProgress({ bytesRead, bytesTotal: size, entriesRead: this.index.count }));
    await feedInSteps(this.source, () => this.feeder, this.buffer(), end, report, yieldTo);
    this.stoppedShort = this.feeder.fedOffset < size;
    report?.(this.feeder.fedOffset);
  }

  /** The last read stopped at its `maxBytes` before the end of the file as it was then. */
  get moreToRead(): boolean {
    return this.stoppedShort;
  }

  /**
   * Reads what was appended since the last read. If the file shrank or the bytes
   * already read changed (append-only broken), reads it again from byte 0.
   */
  async refresh(opts: RefreshOptions = {}): Promise<RefreshResult> {
    const proof = this.stamp.proofNow();
    const size = proof?.size ?? this.source.size();
    const broken = continuityBroken(this.source, this.reader, this.feeder, size);
    if (broken) return this.reload(broken, opts);
    if (size === this.feeder.fedOffset) {
      this.stoppedShort = false;
      // A change that did not grow the file rewrote it in place, or only touched it: told apart by reading it again.
      if (opts.changed && this.stamp.mayHaveChanged()) {
        const generation = this.generation;
        if ((await this.checkReading()) !== null) return this.reload('rewritten', opts);
        // Every byte read was read again after `proof` was taken, as by a read begun then: the
        // next change event compares with it (the same event again checks nothing once it is not racy).
        if (this.generation === generation && this.feeder.fedOffset === proof?.size) this.stamp.adopt(proof);
      }
      return { kind: 'unchanged' };
    }
    const before = this.index.count;
    const from = this.feeder.fedOffset;
    await this.readNew(opts);
    return {
      kind: 'appended',
      firstNew: before,
      newEntries: this.index.count - before,
      bytes: this.feeder.fedOffset - from,
    };
  }

  /**
   * Reads the file again from byte 0 (append-only was broken, or the reading was found not to
   * describe the file): a new reading, with a new generation.
   */
  async reload(reason: 'shrunk' | 'rewritten', opts: OpenOptions = {}): Promise<RefreshResult> {
    this.appendOnlyBreaks.push({ at: new Date().toISOString(), reason });
    // Waited out before the reading is dropped: no request sees an empty index meanwhile.
    const settling = this.stamp.settled();
    if (settling) await settling;
    this.reset();
    await this.readNew(opts, true);
    return { kind: 'reloaded', reason };
  }

  /** Restored from a kept index and not yet checked against the file (see `checkReading`). */
  get keptUnverified(): boolean {
    return this.keptUnchecked;
  }

  /**
   * Reads every complete line read so far again, in steps, and compares the result with this
   * reading (reading-check.ts): null when they are the same, else what differs (then `reload`).
   * A kept index becomes checked by it. Nothing else may read into this ledger meanwhile (the
   * session's queue); a reading started over meanwhile makes it answer null.
   */
  async checkReading(stepBytes = YIELD_EVERY): Promise<string | null> {
    this.hashes.finish();
    const generation = this.generation;
    const r = this.reader;
    const end = r.lastLineOffset < 0 ? 0 : r.lastLineOffset + r.lastLineLength + 1;
    const before = this.source.bytesRead;
    // The restored lines pass by once more here: a line sink that never saw them sees them now.
    const restored = this.keptUnchecked ? (this.sink?.restoredLines?.() ?? null) : null;
    let fresh;
    try {
      fresh = await readAgain(this.source, end, stepBytes, () => this.generation !== generation, restored);
    } finally {
      this.checkedBytes += this.source.bytesRead - before;
      restored?.finished(fresh !== undefined && fresh !== null && this.generation === generation);
    }
    if (this.generation !== generation) return null;
    const diff = end === 0 ? null : readingDifference(captureSnapshot(r, this.index), fresh);
    if (diff === null) this.keptUnchecked = false;
    return diff;
  }

  /**
   * For a writer holding the agent's lock (§7): reads, synchronously, only the bytes
   * appended since the last read, after a cheap append-only check (the `\n` that ends the
   * last complete line is still there, the pending tail is unchanged; the full check is
   * `refresh`'s, run before the lock is taken). Returns how many bytes were appended, or
   * null (nothing read) when append-only looks broken or more than `maxBytes` are new:
   * the caller releases the lock and refreshes first.
   */
  readAppendedSync(maxBytes: number): number | null {
    const size = this.source.size();
    const from = this.feeder.fedOffset;
    if (size < from || size - from > maxBytes) return null;
    if (!tailLooksKept(this.source, this.reader, this.feeder)) return null;
    this.readNewSync();
    this.stoppedShort = false;
    return this.feeder.fedOffset - from;
  }

  /** Physical lines completed so far (a torn tail not counted). */
  get linesRead(): number {
    return this.reader.lines;
  }

  /** A first read's hash check is still to do (`checkHashes`): `warningsSoFar()` may lack hash mismatches. */
  get hashCheckPending(): boolean {
    return this.hashes.pending;
  }

  /**
   * Does the deferred hash check in steps of about `stepBytes`, letting the event loop run between
   * them; reads after this hash as they read. Resolves with what it found (also when something
   * that needed every warning finished it first), or null when this reading deferred none (the
   * file was read again from byte 0 meanwhile: a new reading, hashed as read).
   */
  async checkHashes(stepBytes = YIELD_EVERY): Promise<HashCheckResult | null> {
    return this.hashes.inSteps(stepBytes);
  }

  /** Every warning of §8 for the file as read now, in file order (a deferred hash check is done first). */
  warnings(): LedgerWarning[] {
    this.hashes.finish();
    return this.warningsSoFar();
  }

  /**
   * The warnings as known now: without the hash mismatches of a deferred check still pending
   * (`hashCheckPending`). For figures shown while a first open answers; the rest arrives after.
   */
  warningsSoFar(): LedgerWarning[] {
    return sortWarnings([...this.reader.warnings, ...tailWarnings(this.reader, this.feeder, this.stoppedShort)]);
  }

  /** Hash of the last complete line: the `prev_hash` an appended line must carry. */
  get lastLineHash(): string | null {
    return this.reader.prevHash;
  }

  /**
   * What a writer must link to (§2, §7): the hash of the file's last physical
   * line, which is the pending torn tail when the file does not end in `\n`.
   */
  lastPhysicalLine(): { hash: string | null; torn: boolean } {
    const pending = this.feeder.pendingBytes();
    if (pending.length > 0) return { hash: hash('sha256', pending, 'hex'), torn: true };
    return { hash: this.reader.prevHash, torn: false };
  }

  /** True when the file does not end in `\n` (a torn tail or a write in progress). */
  get hasPendingTail(): boolean {
    return this.feeder.pendingLength > 0 && !this.stoppedShort;
  }

  /** The exact bytes of an entry's line, without `\n`. */
  rawLine(i: number): Buffer {
    return readRange(this.source, this.index.offset[i], this.index.length[i]);
  }

  /**
   * The physical line starting at byte `offset` (an entry or not: warnings point at
   * lines that are none), up to `max` bytes. `length` is null when clipped before its `\n`.
   */
  lineAt(offset: number, max: number): { bytes: Buffer; length: number | null; terminated: boolean } {
    return lineAt(this.source, offset, max);
  }

  /**
   * An accepted entry, read back by offset, parsed and validated into its typed
   * case once (cached). Payloads stay on disk until asked for.
   */
  entry(i: number): LedgerEntry {
    return this.entries.entry(this.index, i);
  }

  /**
   * Work entry `i`'s event for the §3 fold (work-fold.ts): as the reader noted it when this
   * reading parsed its line (work-notes.ts), else from its line (read before a resume, or parsed
   * skimmed); null when it is no well-formed work entry.
   */
  workEvent(i: number): WorkEvent | null {
    const noted = this.reader.work.of(i);
    if (noted !== undefined) return noted;
    const e = this.scanEntry(i);
    return e.kind === 'work' ? { ts: e.ts, work: e.work } : null;
  }

  /**
   * An entry for a one-pass scan (a whole chain's Full costs): from the cache when it is there,
   * else parsed and not kept. Kept, each entry of a 100 MB chain would push out one a page may
   * still draw, and live just long enough to be promoted and collected as old garbage (a first
   * leaf's costs took ~20 % longer through the cache).
   */
  scanEntry(i: number): LedgerEntry {
    return this.entries.scanEntry(this.index, i);
  }

  /** An entry for a one-pass read of Full shapes (EntryReader.skimmedEntry). */
  skimmedEntry(i: number): { entry: LedgerEntry; long: LongStrings | null } {
    return this.entries.skimmedEntry(this.index, i);
  }

  /**
   * Whether the bytes at entry `i`'s offset still hold that entry, read from the file now (no
   * window or cache): a branch proves its parent with it under the lock.
   */
  lineHoldsEntry(i: number): boolean {
    return lineHoldsEntry(this.source, this.index, i);
  }

  /**
   * Under the lock (§7): whether the last complete line read is still there, byte for byte (its
   * hash is what a branch links to), and the file ends where this reading ends (a pending torn
   * tail included). Null when it does, else what differs.
   */
  tailDiffers(): string | null {
    return tailDiffers(this.source, this.reader, this.feeder);
  }

  /** Index of an id, or undefined. */
  indexOf(id: string): number | undefined {
    return this.index.indexOf(id);
  }

  close(): void {
    this.hashes.stop(); // a check in steps stops at its next step
    this.derived.clear();
    this.source.close();
    this.sink?.closed?.();
  }
}
