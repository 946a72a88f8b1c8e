/**
 * The secret survey: counts the secrets of the home's sessions that were never opened, in the
 * background, so the library row and the session card can show a count before an open.
 *
 * It reads one file at a time, newest first, in small chunks, and hands each complete line to a
 * SecretScanner (the open scan's scanner: same gate, same preset, same scan thread). Before each
 * chunk it waits while the foreground is busy (a call running or just answered, a session being
 * read, an open's scan not done), and after each it rests for several times the CPU the chunk
 * took, so it takes a bounded share of a core and an open never waits behind more than one chunk.
 *
 * A result is kept (in memory only) with the file's identity: dev, ino, size, mtime, and the
 * hash of the bytes just before where it stopped. A file whose size and mtime are unchanged is
 * not read again; one that only grew, with those bytes unchanged, is continued from where it
 * stopped (each ledger line names the hash of the one before it, so the last line pins what
 * came before under the hash chain); anything else is surveyed again from its start. A session
 * that gets opened leaves the survey: its open scan counts it.
 *
 * Files are opened as an open opens them (session-file.ts: no lock, regular files only, links
 * only to their own ledger), so a FIFO, a link loop or a device is skipped with a warning.
 *
 * The user can turn it off and on while it runs (`setOn`). Off, it leaves the file it reads at the
 * end of the step in progress (closing it, claiming nothing for that file) and reads nothing more;
 * `counts()` then says nothing of sessions never opened, since counts no longer checked against
 * their files could be stale. What it surveyed is kept in memory, so on again it shows those counts
 * at once and reads only files that changed meanwhile.
 */
import { createHash } from 'node:crypto';
import { closeSync, read, statSync } from 'node:fs';
import type { SecretCount, SecretCountState } from '../../shared/api-secrets';
import type { SessionKey } from '../../shared/leaf-request';
import type { SessionFile } from '../core/home';
import { LedgerIndex } from '../core/ledger-index';
import { openSessionFile } from '../core/session-file';
import { SecretScanner } from './secret-scanner';
import type { ScanThread } from './scan-thread';

/** What the survey says of a session not opened (the API's `SecretCount.state`). */
type SurveyState = Exclude<SecretCountState, 'open'>;

export interface SecretSurveyOptions {
  /** Whether it runs from the start (default true; `setOn` changes it). */
  on?: boolean;
  /** The sessions to survey (the library's), with their files. */
  sessions(): { key: SessionKey; file: SessionFile }[];
  /** True once the session has an open scan: the survey leaves it to that. */
  isOpen(key: SessionKey): boolean;
  /** True while the foreground works: the survey waits. */
  foregroundBusy(): boolean;
  /** Bytes read per step (default CHUNK_BYTES). */
  chunkBytes?: number;
  /** The survey rests this many times the CPU a step took (default REST_FACTOR). */
  restFactor?: number;
  /** Before the first pass, and between passes (default START_MS, PASS_GAP_MS). */
  startMs?: number;
  passGapMs?: number;
  /** The scan thread (tests); default the process's shared one, through SecretScanner. */
  thread?: ScanThread;
  warn?: (message: string) => void;
}

/**
 * Small steps: an open that arrives mid-step waits for at most this much reading and scanning.
 * (Smaller than what the scan thread takes for a read in progress, so its lint does not wait.)
 */
const CHUNK_BYTES = 128 << 10;
/**
 * After a step, rest 3x the CPU the process spent in it (every thread: the reading, the gate and
 * the lint): the survey takes at most a quarter of a core, and nothing while the user works.
 */
const REST_FACTOR = 3;
/** How often a paused survey looks again. */
const PAUSE_POLL_MS = 100;
/** Not during the backend's start and a first open right after it. */
const START_MS = 3000;
/** Between passes over the home (a pass over unchanged files is one stat each). */
const PASS_GAP_MS = 5000;
/** Bytes hashed before where a survey stopped, to prove a grown file kept them. */
const TAIL_BYTES = 4096;
/** Line 1 longer than this is not taken for a ledger's (as session-file.ts reads a header). */
const MAX_HEADER_BYTES = 4 << 20;
/** A line longer than this is not scanned by the survey (its open scans it). */
const MAX_LINE_BYTES = 64 << 20;

interface Kept {
  state: SurveyState;
  count: number;
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  /** Where the survey stopped: just after the last complete line. */
  end: number;
  /** The last line number surveyed. */
  lines: number;
  /** sha256 of the TAIL_BYTES (or fewer) before `end`. */
  tail: string;
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    // (Unreferenced: the survey never keeps the process alive.)
    setTimeout(resolve, ms).unref();
  });

function readAt(fd: number, buf: Buffer, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buf, 0, length, position, (e, n) => (e ? reject(e) : resolve(n)));
  });
}

/** The entry id a line names (`"id":"…"` near its start), or '' (it only labels findings). */
function lineId(line: Buffer): string {
  const head = line.subarray(0, 256).toString('latin1');
  const at = head.indexOf('"id":"');
  if (at < 0) return '';
  const end = head.indexOf('"', at + 6);
  return end < 0 ? '' : head.slice(at + 6, end);
}

/** A copy of the last `n` bytes of `parts` back to back (without joining what comes before them). */
function lastBytes(parts: Buffer[], n: number): Buffer {
  const out: Buffer[] = [];
  let have = 0;
  for (let k = parts.length - 1; k >= 0 && have < n; k--) {
    const p = parts[k];
    const take = Math.min(p.length, n - have);
    out.unshift(p.subarray(p.length - take));
    have += take;
  }
  return Buffer.concat(out);
}

const digest = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** Line 1 is a JSON object with a string `kind` (a header, or an entry of a ledger without one). */
function looksLikeLedger(first: Buffer): boolean {
  try {
    const v: unknown = JSON.parse(first.toString('utf8'));
    return typeof v === 'object' && v !== null && typeof (v as { kind?: unknown }).kind === 'string';
  } catch {
    return false;
  }
}

export class SecretSurvey {
  private readonly kept = new Map<SessionKey, Kept>();
  /** Ended for good (the backend closes). */
  private stopped = false;
  /** The user's setting: off, it reads nothing (see `setOn`). */
  private on: boolean;
  private running: Promise<void> | null = null;
  /** The survey of one file in progress (what turning it off waits for). */
  private current: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private readonly chunkBytes: number;
  private readonly restFactor: number;
  private readonly warn: (message: string) => void;
  /** Times a step waited for the foreground (tests and diagnostics). */
  pauses = 0;
  /** Passes over the home completed. */
  passes = 0;
  /** Bytes read by the survey. */
  bytesRead = 0;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly opts: SecretSurveyOptions) {
    this.on = opts.on ?? true;
    this.chunkBytes = opts.chunkBytes ?? CHUNK_BYTES;
    this.restFactor = opts.restFactor ?? REST_FACTOR;
    this.warn = opts.warn ?? ((m) => console.warn(`vak-explorer: ${m}`));
  }

  start(): void {
    this.running ??= this.loop();
  }

  /** Stops after the step in progress; resolves once it has. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    await this.running;
  }

  /** Whether it runs (the user's setting). */
  isOn(): boolean {
    return this.on;
  }

  /**
   * Turns it on (it resumes: files not changed since their survey are not read again) or off (it
   * ends the step in progress and closes its file; resolves once it has). Idempotent.
   */
  async setOn(on: boolean): Promise<void> {
    if (this.on !== on) {
      this.on = on;
      // Off: out of a rest at once (the loop then waits to be turned on); on: out of that wait.
      this.wakeUp?.();
      this.changed();
    }
    if (!on) await this.current;
  }

  /** Looks at the home again now (a file changed), not after the pause between passes. */
  nudge(): void {
    this.wakeUp?.();
  }

  /** Told after every step and every pass (tests wait on it). */
  onChange(f: () => void): () => void {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }

  /**
   * The survey's word on each session it was given; opened ones are left out (their scan counts).
   * None while it is off: what it kept is not checked against the files meanwhile.
   */
  counts(): SecretCount[] {
    const out: SecretCount[] = [];
    if (!this.on) return out;
    for (const { key } of this.opts.sessions()) {
      if (this.opts.isOpen(key)) continue;
      const k = this.kept.get(key);
      const state = k?.state ?? 'pending';
      out.push({ key, state, count: k?.count ?? 0, scanning: state === 'surveying' });
    }
    return out;
  }

  private changed(): void {
    for (const f of this.listeners) f();
  }

  private async loop(): Promise<void> {
    await this.rest(this.opts.startMs ?? START_MS);
    while (!this.stopped) {
      if (!this.on) {
        await this.rest(null); // until turned on (or stopped)
        continue;
      }
      try {
        await this.pass();
      } catch (e) {
        // A bug of ours: logged, and the next pass tries again; it never ends the backend.
        this.warn(`the secret survey failed: ${(e as Error).message}`);
      }
      // (A pass the user cut short by turning it off is not one.)
      if (this.on) this.passes++;
      this.changed();
      await this.rest(this.opts.passGapMs ?? PASS_GAP_MS);
    }
  }

  /** Waits `ms` (null: until woken), or less when nudged, stopped, or turned off or on. */
  private rest(ms: number | null): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(t);
        this.wakeUp = null;
        resolve();
      };
      // (Off, no timer at all: a pending promise keeps nothing alive.)
      const t = ms === null ? undefined : setTimeout(done, ms);
      t?.unref();
      this.wakeUp = done;
    });
  }

  /** One pass: every session not opened whose file changed since its survey, newest first. */
  private async pass(): Promise<void> {
    const todo: { key: SessionKey; file: SessionFile; mtimeMs: number }[] = [];
    for (const s of this.opts.sessions()) {
      if (this.opts.isOpen(s.key)) continue;
      let mtimeMs = 0;
      try {
        const st = statSync(s.file.path);
        mtimeMs = st.mtimeMs;
        const k = this.kept.get(s.key);
        if (k && k.dev === st.dev && k.ino === st.ino && k.size === st.size && k.mtimeMs === st.mtimeMs) continue;
      } catch {
        // (A link loop or a file gone: its open below says why, once.)
      }
      todo.push({ ...s, mtimeMs });
    }
    todo.sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const s of todo) {
      if (this.stopped || !this.on) return;
      this.current = this.surveyFile(s.key, s.file);
      try {
        await this.current;
      } finally {
        this.current = null;
      }
    }
  }

  /** Waits while the foreground works; false when the survey of `key` should end (stopped, or opened). */
  private async mayStep(key: SessionKey): Promise<boolean> {
    for (;;) {
      if (this.stopped || !this.on || this.opts.isOpen(key)) return false;
      if (!this.opts.foregroundBusy()) return true;
      this.pauses++;
      this.changed();
      await sleep(PAUSE_POLL_MS);
    }
  }

  private async surveyFile(key: SessionKey, file: SessionFile): Promise<void> {
    if (!(await this.mayStep(key))) return;
    let opened;
    try {
      opened = openSessionFile(file);
    } catch (e) {
      this.skip(key, file.path, (e as Error).message);
      return;
    }
    const { fd, stat } = opened;
    try {
      const prev = this.kept.get(key);
      const base = {
        dev: stat.dev,
        ino: stat.ino,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
      };
      let from = 0;
      let count = 0;
      let lines = 0;
      if (prev && prev.state !== 'not-scanned' && prev.dev === stat.dev && prev.ino === stat.ino) {
        if (prev.size === stat.size && prev.mtimeMs === stat.mtimeMs) return;
        // Grown, with the bytes before where it stopped unchanged: appended to, continue from there.
        // (Same size, new mtime: rewritten in place, surveyed again whole.)
        if (stat.size > prev.size && prev.end > 0 && digest(await this.bytesBefore(fd, prev.end)) === prev.tail) {
          from = prev.end;
          count = prev.count;
          lines = prev.lines;
        }
      }
      if (from === 0 && !(await this.firstLineIsLedger(fd, stat.size))) {
        this.skip(key, file.path, 'its line 1 is not a ledger entry', base);
        return;
      }
      const k: Kept = { ...base, state: 'surveying', count, end: from, lines, tail: '' };
      this.kept.set(key, k);
      const done = await this.scanFrom(key, fd, from, stat.size, k);
      if (!done) {
        // Opened, stopped or turned off mid-way: nothing is claimed for it.
        if (this.kept.get(key) === k) this.kept.delete(key);
        return;
      }
      k.state = 'surveyed';
      this.changed();
    } catch (e) {
      this.skip(key, file.path, (e as Error).message);
    } finally {
      closeSync(fd);
    }
  }

  /** Scans the complete lines in [from, size); false when it stopped before the end. */
  private async scanFrom(key: SessionKey, fd: number, from: number, size: number, k: Kept): Promise<boolean> {
    const scanner = new SecretScanner(this.opts.thread);
    const base = k.count;
    const index = new LedgerIndex(); // (only its `ids[0]`: the id a finding is labelled with)
    const buf = Buffer.allocUnsafe(this.chunkBytes);
    // The start of a line the chunk cut, in pieces (joined once, when its end comes).
    const carry: Buffer[] = [];
    let carryBytes = 0;
    let tooLong = false;
    let pos = from;
    let lineStart = from;
    // The bytes just before `lineStart` as they were read and counted (not as the file may hold
    // them by the end): what proves, on the next pass, that a grown file kept them.
    let tail = await this.bytesBefore(fd, from);
    while (pos < size) {
      if (!(await this.mayStep(key))) return false;
      const cpu0 = process.cpuUsage();
      const n = await readAt(fd, buf, Math.min(this.chunkBytes, size - pos), pos);
      if (n === 0) break; // truncated meanwhile: the next pass sees the new size
      this.bytesRead += n;
      const chunk = buf.subarray(0, n);
      // The line this chunk continues: its start is before any line end the chunk holds.
      const carried = carry.slice();
      let at = 0;
      for (;;) {
        const nl = chunk.indexOf(10, at);
        if (nl < 0) break;
        let line = chunk.subarray(at, nl);
        if (carry.length > 0) {
          line = Buffer.concat([...carry, line]);
          carry.length = 0;
          carryBytes = 0;
        }
        k.lines++;
        if (tooLong) tooLong = false;
        else if (line.length > 0) {
          index.ids[0] = lineId(line);
          scanner.entryLine(line, k.lines, index, 0);
        }
        at = nl + 1;
        lineStart = pos + at;
      }
      if (at < n) {
        const rest = chunk.subarray(at);
        if (!tooLong) {
          carry.push(Buffer.from(rest)); // (a copy: the read buffer is reused)
          carryBytes += rest.length;
          if (carryBytes > MAX_LINE_BYTES) {
            this.warn(`secret survey: a line of ${key} is over ${MAX_LINE_BYTES} bytes; left to its open's scan`);
            carry.length = 0;
            carryBytes = 0;
            tooLong = true;
          }
        }
      }
      if (lineStart > pos) tail = lastBytes([tail, ...carried, chunk.subarray(0, lineStart - pos)], TAIL_BYTES);
      pos += n;
      k.tail = digest(tail);
      await scanner.whenIdle();
      k.count = base + scanner.count;
      k.end = lineStart;
      this.changed();
      const cpu = process.cpuUsage(cpu0);
      await sleep(Math.max(1, ((cpu.user + cpu.system) / 1000) * this.restFactor));
    }
    return true;
  }

  /** Line 1 read in growing steps (a header holds the system prompt and tools: it may be long). */
  private async firstLineIsLedger(fd: number, size: number): Promise<boolean> {
    for (let want = 64 << 10; ; want *= 4) {
      const buf = Buffer.allocUnsafe(Math.min(size, want, MAX_HEADER_BYTES));
      const n = buf.length === 0 ? 0 : await readAt(fd, buf, buf.length, 0);
      const nl = buf.subarray(0, n).indexOf(10);
      if (nl >= 0) return looksLikeLedger(buf.subarray(0, nl));
      if (n < buf.length || buf.length >= size || buf.length >= MAX_HEADER_BYTES) return false;
    }
  }

  /** The TAIL_BYTES (or fewer) before `end`. */
  private async bytesBefore(fd: number, end: number): Promise<Buffer> {
    const len = Math.min(TAIL_BYTES, end);
    const buf = Buffer.alloc(len);
    const n = len === 0 ? 0 : await readAt(fd, buf, len, end - len);
    return buf.subarray(0, n);
  }

  private skip(key: SessionKey, path: string, why: string, id?: Pick<Kept, 'dev' | 'ino' | 'size' | 'mtimeMs'>): void {
    const before = this.kept.get(key);
    // Warned once per file state, not on every pass.
    if (before?.state !== 'not-scanned') this.warn(`secret survey: skipped ${path}: ${why}`);
    let ident = id;
    if (!ident) {
      try {
        const st = statSync(path);
        ident = { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
      } catch {
        ident = { dev: -1, ino: -1, size: -1, mtimeMs: -1 };
      }
    }
    this.kept.set(key, { ...ident, state: 'not-scanned', count: 0, end: 0, lines: 0, tail: '' });
    this.changed();
  }
}
