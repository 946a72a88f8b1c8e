/**
 * Scans a session for secrets as its lines are read: the reader hands each entry's line to
 * `entryLine` (a LineSink, line-reader.ts), which keeps a copy and returns at once; the lines are
 * then scanned in small steps between the event loop's other work, so a first open is not held
 * up by the rules and the file is never read a second time. Appended lines arrive the same way.
 *
 * A finding keeps the secret's text for redaction (redact.ts) in this process only: what leaves
 * it (`publicFinding`) names the kind, the rule and where, never the text.
 */
import type { LedgerIndex } from '../core/ledger-index';
import type { LineSink, RestoredLineSink } from '../core/line-reader';
import type { SecretFinding } from '../../shared/api-secrets';
import { entryTexts } from './entry-texts';
import { lintText, mayHoldSecret, type RuleMatch } from './secret-rules';

/** A finding with its secret's text (never sent, never logged). */
export interface HeldFinding extends SecretFinding {
  secret: string;
}

/** Lines waiting to be scanned, copied out of the reader's buffer. */
interface PendingLine {
  line: number;
  entryId: string;
  bytes: Buffer;
}

/** Texts handed to the rules at once: one call per batch keeps the rules' fixed cost small. */
const BATCH_CHARS = 32 << 10;
/** A step of scanning ends after this long, so requests wait little behind it. */
const STEP_MS = 8;
/**
 * Scanning waits until no line has arrived for this long: a first read runs to its end (and
 * its first answers go out) before the scan takes the thread.
 */
const QUIET_MS = 30;
/** Between two texts of a batch: no rule of the preset matches across a blank line and a NUL. */
const SEPARATOR = '\n\u0000\n';

export class SecretScanner implements LineSink {
  private pending: PendingLine[] = [];
  private head = 0;
  private readonly held: HeldFinding[] = [];
  private readonly byEntry = new Map<string, HeldFinding[]>();
  /** Bumped when the reading starts over: a batch in flight then finds its lines gone. */
  private epoch = 0;
  private running = false;
  private idleWaiters: (() => void)[] = [];
  private readonly listeners = new Set<() => void>();
  /** Lines scanned, and texts handed to the rules (the gate let them through). */
  linesScanned = 0;
  textsLinted = 0;
  /** The first line this reading scans (a reading resumed from a kept index starts after it). */
  fromLine = 1;

  /** When the last line arrived (performance.now()). */
  private lastLineAt = 0;

  entryLine(bytes: Buffer, lineNo: number, index: LedgerIndex, i: number): void {
    // A copy (`bytes` is a view into the read buffer); everything else waits for the scan's steps.
    this.pending.push({ line: lineNo, entryId: index.ids[i], bytes: Buffer.from(bytes) });
    this.lastLineAt = performance.now();
    this.schedule();
  }

  restart(fromLine: number): void {
    this.epoch++;
    this.pending = [];
    this.head = 0;
    this.held.length = 0;
    this.byEntry.clear();
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
    this.filling = true;
    return {
      entryLine: (bytes, lineNo, index, i) => {
        if (epoch === this.epoch && lineNo < before) this.entryLine(bytes, lineNo, index, i);
      },
      finished: (complete) => {
        if (complete && epoch === this.epoch) this.fromLine = 1;
        this.filling = false;
        this.schedule();
      },
    };
  }

  /** Restored lines still being read back by the kept index's check (`restoredLines`). */
  private filling = false;

  /** Lines wait to be scanned, or are being scanned or read back: the count may still grow. */
  get busy(): boolean {
    return this.running || this.filling || this.waiting > 0;
  }

  /** Lines read but not scanned yet. */
  get waiting(): number {
    return this.pending.length - this.head;
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

  private schedule(): void {
    if (this.running) return;
    this.running = true;
    setTimeout(() => void this.step(), QUIET_MS);
  }

  private async step(): Promise<void> {
    const quiet = performance.now() - this.lastLineAt;
    if (quiet < QUIET_MS) {
      setTimeout(() => void this.step(), QUIET_MS - quiet);
      return;
    }
    const epoch = this.epoch;
    const started = performance.now();
    let added = false;
    try {
      while (this.waiting > 0 && performance.now() - started < STEP_MS) {
        const batch = this.takeBatch();
        const found = await scanBatch(batch.texts);
        if (epoch !== this.epoch) return;
        for (const f of found) {
          this.add(f);
          added = true;
        }
      }
    } catch {
      // A rule that throws on some text must not stop the session's reading: its batch is skipped.
    } finally {
      if (added) this.notify();
      if (epoch !== this.epoch || this.waiting > 0) setImmediate(() => void this.step());
      else {
        this.running = false;
        this.pending = [];
        this.head = 0;
        // While the kept index's check reads restored lines back, its end schedules the step that ends the scan.
        const waiters = this.filling ? [] : this.idleWaiters;
        if (!this.filling) this.idleWaiters = [];
        for (const w of waiters) w();
      }
    }
  }

  /** Lines from the queue until their gated texts fill a batch. */
  private takeBatch(): { texts: BatchText[] } {
    const texts: BatchText[] = [];
    let chars = 0;
    while (this.waiting > 0 && chars < BATCH_CHARS) {
      const p = this.pending[this.head];
      this.pending[this.head++] = undefined as unknown as PendingLine; // let its bytes go
      this.linesScanned++;
      // Most lines hold nothing a rule could match: they are not even parsed.
      if (!mayHoldSecret(p.bytes.toString('latin1'))) continue;
      let entry: unknown;
      try {
        entry = JSON.parse(p.bytes.toString('utf8'));
      } catch {
        continue; // the reader accepted it, so it parses; a line changed since is read again anyway
      }
      for (const t of entryTexts(entry as never)) {
        if (!mayHoldSecret(t.text)) continue;
        this.textsLinted++;
        texts.push({ ...t, line: p.line, entryId: p.entryId, bytes: p.bytes });
        chars += t.text.length + SEPARATOR.length;
      }
    }
    return { texts };
  }

  private add(f: HeldFinding): void {
    this.held.push(f);
    const list = this.byEntry.get(f.entryId);
    if (list) list.push(f);
    else this.byEntry.set(f.entryId, [f]);
  }

  private notify(): void {
    for (const f of this.listeners) f();
  }
}

interface BatchText {
  path: string;
  text: string;
  line: number;
  entryId: string;
  bytes: Buffer;
}

/** Runs the rules once over the batch's texts joined, and maps each match back to its text. */
async function scanBatch(texts: BatchText[]): Promise<HeldFinding[]> {
  if (texts.length === 0) return [];
  const starts: number[] = [];
  let joined = '';
  for (const t of texts) {
    if (joined.length > 0) joined += SEPARATOR;
    starts.push(joined.length);
    joined += t.text;
  }
  const matches = await lintText(joined);
  const out: HeldFinding[] = [];
  for (const m of matches) {
    const k = lastAtOrBefore(starts, m.start);
    const t = texts[k];
    const start = m.start - starts[k];
    const end = Math.min(m.end - starts[k], t.text.length);
    if (end <= start) continue;
    out.push(finding(t, start, end, m));
  }
  return out;
}

function finding(t: BatchText, start: number, end: number, m: RuleMatch): HeldFinding {
  const secret = t.text.slice(start, end);
  return {
    entryId: t.entryId,
    line: t.line,
    field: t.path,
    rule: m.rule,
    kind: m.kind,
    start,
    end,
    lineBytes: lineByteRange(t.bytes, t.text, start, end),
    secret,
  };
}

/**
 * Where `text.slice(start, end)` lies in the line's bytes, when the line writes the text as
 * JSON.stringify does (the usual case); null when it escapes it otherwise.
 */
function lineByteRange(line: Buffer, text: string, start: number, end: number): [number, number] | null {
  const token = Buffer.from(JSON.stringify(text));
  const at = line.indexOf(token);
  if (at < 0) return null;
  const before = Buffer.byteLength(JSON.stringify(text.slice(0, start))) - 1; // opening quote included
  const inside = Buffer.byteLength(JSON.stringify(text.slice(start, end))) - 2;
  return [at + before, at + before + inside];
}

function lastAtOrBefore(sorted: number[], x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid] <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
