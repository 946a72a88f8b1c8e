/**
 * Scans a session for secrets as its lines are read: the reader hands each entry's line to
 * `entryLine` (a LineSink, line-reader.ts), which copies it into a batch and returns; full
 * batches go to the scan thread (scan-thread.ts), which runs the gate, the parse and the rules
 * and answers with findings. The reading thread never scans, and the file is never parsed a second
 * time. Appended lines arrive the same way. A session's first open in the backend defers the scan
 * until its first screen is answered (`deferUntilFirstScreen`): the lines read meanwhile are read
 * again as bytes by the scan thread, from the file (the page cache), not handed over.
 *
 * A finding keeps the secret's text for redaction (redact.ts) in this process only: what leaves
 * it (`publicFinding`) names the kind, the rule and where, never the text.
 */
import type { LedgerIndex } from '../core/ledger-index';
import type { LineSink, RestoredLineSink } from '../core/line-reader';
import type { BatchResult, HeldFinding, LineBatch, LineFile } from './scan-batch';
import { BATCH_BYTES, sharedScanThread, type ScanThread } from './scan-thread';

export type { HeldFinding } from './scan-batch';

/**
 * A batch still filling goes to the scan thread once no line has come for this long: during a
 * read lines keep coming and only full batches go; at its end (or after an append) the rest goes.
 */
const FLUSH_MS = 10;

/**
 * A deferral with no first screen (`endDeferral`) ends once no line has come for this long: the
 * read ended or paused (a session no client asked a leaf of still gets scanned).
 */
export const DEFER_QUIET_MS = 1000;

/** Entries `from` … `to` − 1 of `index`, read while the scan was deferred: where their lines are is in the index. */
interface DeferredRun {
  index: LedgerIndex;
  from: number;
  to: number;
}

/** The batch being filled: lines back to back in a (pooled) buffer. */
interface Filling {
  bytes: Buffer;
  used: number;
  ends: number[];
  lineNos: number[];
  entries: number[];
  /** The index the entries are positions in (a batch holds lines of one index). */
  index: LedgerIndex | null;
  /** The lines' offsets in `file` (when this reading has one). */
  offsets: number[];
}

let nextOwner = 1;

export class SecretScanner implements LineSink {
  private readonly owner = nextOwner++;
  private filling: Filling | null = null;
  /** Lines of this epoch in batches handed to the scan thread and not answered yet, and in the one filling. */
  private queued = 0;
  private readonly held: HeldFinding[] = [];
  private readonly byEntry = new Map<string, HeldFinding[]>();
  /** Bumped when the reading starts over: the answers for older batches are dropped. */
  private epoch = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly listeners = new Set<() => void>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** Lines since the flush timer was armed: when none came, the batch goes. */
  private sinceArmed = 0;
  /** Lines scanned, and texts handed to the rules (the gate let them through). */
  linesScanned = 0;
  textsLinted = 0;
  /** Lines read but never scanned: the scan thread stopped while it held them. */
  linesLost = 0;
  /** The first line this reading scans (a reading resumed from a kept index starts after it). */
  fromLine = 1;
  /** The thread (worker_threads id) that scanned this reading's last batch; null when none yet. */
  scannedOn: number | null = null;
  /**
   * The session file the lines come from, as opened (set before the first line): the scan thread
   * may then let a backlog's bytes go and read them back from it by offset. Null: lines held.
   */
  file: LineFile | null = null;
  /** Lines whose bytes had changed on disk when read back for the scan: not scanned. */
  linesChanged = 0;
  /** Lines the scan read back from the file (a backlog's, let go meanwhile), `linesChanged` among them. */
  linesReadBack = 0;
  /**
   * While set (`deferUntilFirstScreen`), lines are not handed to the scan thread: only the runs of
   * entries read are kept, and the scan thread reads their lines back from the file by offset once
   * the deferral ends (`endDeferral`).
   */
  private deferring = false;
  private deferredRuns: DeferredRun[] = [];
  private deferTimer: ReturnType<typeof setTimeout> | null = null;
  /** Lines since the deferral's quiet timer was armed. */
  private sinceDeferArmed = 0;
  /** Lines read while the scan was deferred (this reading), handed to the scan thread when it ended. */
  linesDeferred = 0;

  constructor(private readonly thread: ScanThread = sharedScanThread()) {}

  entryLine(bytes: Buffer, lineNo: number, index: LedgerIndex, i: number): void {
    if (this.deferring) {
      this.deferLine(index, i);
      return;
    }
    // A copy (`bytes` is a view into the read buffer) into the batch; the scan thread does the rest.
    let f = this.filling;
    if (f && f.index !== index && f.ends.length > 0) {
      this.send();
      f = null;
    }
    if (f && f.used + bytes.length > f.bytes.length) {
      this.send();
      f = null;
    }
    if (!f) {
      f = {
        bytes: Buffer.from(this.thread.buffer(bytes.length)),
        used: 0,
        ends: [],
        lineNos: [],
        entries: [],
        index,
        offsets: [],
      };
      this.filling = f;
    }
    bytes.copy(f.bytes, f.used);
    f.used += bytes.length;
    f.ends.push(f.used);
    f.lineNos.push(lineNo);
    f.index = index;
    f.entries.push(i);
    if (this.file) f.offsets.push(index.offset[i]);
    this.queued++;
    this.sinceArmed++;
    this.flushTimer ??= setTimeout(() => this.flushWhenQuiet(), FLUSH_MS);
  }

  /**
   * Until `endDeferral` (a session's first screen answered), or until no line has come for
   * DEFER_QUIET_MS, lines are not handed to the scan thread: on two cores any work beside a first
   * open's read delays its first screen. Only the runs of entries read are kept (their lines' offsets
   * and lengths are in the index); the scan thread then reads those bytes back from the file (the
   * page cache, just read) and scans them before anything read after. Needs `file`.
   */
  deferUntilFirstScreen(): void {
    if (!this.file) return;
    this.deferring = true;
  }

  /** Whether lines are being deferred. */
  get deferred(): boolean {
    return this.deferring;
  }

  /** Ends the deferral: the lines read meanwhile go to the scan thread, ahead of any read from now on. */
  endDeferral(): void {
    if (!this.deferring) return;
    this.deferring = false;
    this.clearDeferTimer();
    const runs = this.deferredRuns;
    this.deferredRuns = [];
    for (const r of runs) this.sendDeferred(r);
    this.settle();
  }

  /** The ledger closed its file (the session left the cache): lines deferred are not scanned. */
  closed(): void {
    this.dropDeferred();
  }

  /** Drops the lines deferred and not handed over yet (the session closed, or is read again). */
  dropDeferred(): void {
    this.deferring = false;
    this.clearDeferTimer();
    let n = 0;
    for (const r of this.deferredRuns) n += r.to - r.from;
    this.deferredRuns = [];
    this.queued -= n;
    this.linesLost += n;
    this.settle();
  }

  private deferLine(index: LedgerIndex, i: number): void {
    const last = this.deferredRuns[this.deferredRuns.length - 1];
    if (last && last.index === index && last.to === i) last.to++;
    else this.deferredRuns.push({ index, from: i, to: i + 1 });
    this.queued++;
    this.linesDeferred++;
    this.sinceDeferArmed++;
    this.deferTimer ??= setTimeout(() => this.deferWhileReading(), DEFER_QUIET_MS);
  }

  private deferWhileReading(): void {
    this.deferTimer = null;
    if (this.sinceDeferArmed > 0) {
      this.sinceDeferArmed = 0;
      this.deferTimer = setTimeout(() => this.deferWhileReading(), DEFER_QUIET_MS);
      return;
    }
    this.endDeferral();
  }

  private clearDeferTimer(): void {
    if (this.deferTimer) clearTimeout(this.deferTimer);
    this.deferTimer = null;
    this.sinceDeferArmed = 0;
  }

  /** A run of deferred lines, in batches of about a pooled buffer's bytes, their bytes left in the file. */
  private sendDeferred(r: DeferredRun): void {
    const file = this.file;
    if (!file) return;
    const { index } = r;
    let k = r.from;
    while (k < r.to) {
      const offsets: number[] = [];
      const batch: LineBatch = {
        buf: new ArrayBuffer(0),
        ends: [],
        lineNos: [],
        entries: [],
        file,
        offsets,
        inFile: true,
      };
      let used = 0;
      for (; k < r.to && (used === 0 || used + index.length[k] <= BATCH_BYTES); k++) {
        used += index.length[k];
        batch.ends.push(used);
        batch.lineNos.push(index.line[k]);
        batch.entries.push(k);
        offsets.push(index.offset[k]);
      }
      this.submit(batch, index);
    }
  }

  restart(fromLine: number): void {
    this.epoch++;
    // The older batches' answers are dropped when they come: their lines no longer count.
    this.queued = 0;
    if (this.filling) {
      this.filling = { ...this.filling, used: 0, ends: [], lineNos: [], entries: [], index: null, offsets: [] };
    }
    this.thread.drop(this.owner, this.epoch);
    if (this.deferredRuns.length > 0 || this.deferring) {
      // The runs name entries of the reading started over: dropped; the new reading is deferred still.
      this.deferredRuns = [];
      this.clearDeferTimer();
    }
    this.held.length = 0;
    this.byEntry.clear();
    this.linesLost = 0;
    this.linesChanged = 0;
    this.linesReadBack = 0;
    this.linesDeferred = 0;
    this.fromLine = fromLine;
    this.notify();
  }

  /**
   * A reading restored from a kept index read none of the lines it restored. The kept index's
   * check (Ledger.checkReading) reads those bytes again anyway, so it hands them to the sink
   * returned here and they are scanned in that same pass: the file is still read once. Null when
   * this reading saw every line.
   */
  restoredLines(): RestoredLineSink | null {
    const before = this.fromLine;
    if (before <= 1) return null;
    const epoch = this.epoch;
    this.restoring = true;
    return {
      entryLine: (bytes, lineNo, index, i) => {
        if (epoch === this.epoch && lineNo < before) this.entryLine(bytes, lineNo, index, i);
      },
      finished: (complete) => {
        if (complete && epoch === this.epoch) this.fromLine = 1;
        this.restoring = false;
        this.settle();
      },
    };
  }

  /** Restored lines still being read back by the kept index's check (`restoredLines`). */
  private restoring = false;

  /** Lines wait to be scanned, or are being scanned or read back: the count may still grow. */
  get busy(): boolean {
    return this.restoring || this.queued > 0;
  }

  /** Lines read but not scanned yet. */
  get waiting(): number {
    return this.queued;
  }

  get count(): number {
    return this.held.length;
  }

  findings(): readonly HeldFinding[] {
    return this.held;
  }

  findingsOf(entryId: string): readonly HeldFinding[] {
    return this.byEntry.get(entryId) ?? [];
  }

  /** Told whenever findings were added or dropped. */
  onChange(f: () => void): () => void {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }

  /** Resolves once every line read so far is scanned. */
  whenIdle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private flushWhenQuiet(): void {
    if (this.sinceArmed > 0) {
      this.sinceArmed = 0;
      this.flushTimer = setTimeout(() => this.flushWhenQuiet(), FLUSH_MS);
      return;
    }
    this.flushTimer = null;
    this.send();
    this.settle();
  }

  /** Hands the batch filling to the scan thread. */
  private send(): void {
    const f = this.filling;
    this.filling = null;
    if (!f || f.ends.length === 0) return;
    const lines = f.ends.length;
    const buf = f.bytes.buffer as ArrayBuffer;
    const index = f.index;
    const where = this.file && f.offsets.length === lines ? { file: this.file, offsets: f.offsets } : {};
    this.submit({ buf, ends: f.ends, lineNos: f.lineNos, entries: f.entries, ...where }, index);
  }

  private submit(batch: LineBatch, index: LedgerIndex | null): void {
    const epoch = this.epoch;
    const lines = batch.ends.length;
    this.thread.submit(this.owner, epoch, batch, (r, lost) => {
      if (epoch === this.epoch) {
        this.queued -= lines;
        if (r && index) this.take(r, index);
        else if (lost) this.linesLost += lines;
      }
      this.settle();
    });
  }

  private take(r: BatchResult, index: LedgerIndex): void {
    this.linesScanned += r.lines;
    this.textsLinted += r.texts;
    this.scannedOn = this.thread.threadId;
    this.linesReadBack += r.readBack ?? 0;
    if (r.changed) {
      if (this.linesChanged === 0) {
        console.warn(
          'vak-explorer: lines of a session changed on disk before the secret scan read them back; they are not scanned',
        );
      }
      this.linesChanged += r.changed;
    }
    for (const { entry, ...rest } of r.findings) {
      const f: HeldFinding = { entryId: index.ids[entry], ...rest };
      this.held.push(f);
      const list = this.byEntry.get(f.entryId);
      if (list) list.push(f);
      else this.byEntry.set(f.entryId, [f]);
    }
    if (r.findings.length > 0) this.notify();
  }

  /** Tells the idle waiters once nothing is left to scan. */
  private settle(): void {
    if (this.busy) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private notify(): void {
    for (const f of this.listeners) f();
  }
}
