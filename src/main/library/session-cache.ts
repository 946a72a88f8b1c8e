import { realpathSync, statSync } from 'node:fs';
import type { SessionKey } from '../../shared/api';
import { KeyedQueue } from '../../shared/keyed-queue';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { appendBranch, BranchError, type BranchLockStats, type BranchResult } from '../core/branch-append';
import type { Ledger } from '../core/ledger';
import type { ReadProgress, RefreshResult } from '../core/ledger-options';
import { adoptTurnColumns } from '../core/turn-cache';
import type { IndexStore } from './index-store';
import { OpenSession, type ReadInSteps, type RereadReason, type SessionChange } from './open-session';
import { openLedger } from './open-ledger';
import { layoutOnOpen, settle } from './session-layout';
import type { OpenedFiles } from './opened-files';
import { firstPhase } from './session-state';
import { SessionUpkeep } from './session-upkeep';

export type { OpenSession, ReadInSteps, RereadReason, SessionChange } from './open-session';

/**
 * Sessions note their messages' Full costs while read (full-notes.ts) at the default profile's
 * bytes_per_token, the one a first leaf is asked with; another is costed from the lines.
 */
const NOTES_BPT = DEFAULT_PROFILE.bytes_per_token;

/**
 * Open ledgers by key: an LRU of a few, plus every session someone follows
 * (pinned). Opening a big file reports progress; refreshes of one session run
 * one at a time, and an append is read as its new bytes only (`Ledger.refresh`).
 */
export class SessionCache {
  private open = new Map<SessionKey, OpenSession>();
  private opening = new Map<SessionKey, Promise<OpenSession>>();
  private pins = new Map<SessionKey, number>();
  /** Refreshes and branches of one session run in turn. */
  private readonly queue = new KeyedQueue<SessionKey>();
  /** Callers waiting for a session's read to end, by key (acquireWhole, withSession): a read does not wait for them. */
  private readonly readWaiters = new Map<SessionKey, number>();
  private steps: ReadInSteps | null = null;
  private beforeKeeping: ((s: OpenSession) => void) | null = null;
  private onRereading: ((key: SessionKey, reason: RereadReason) => void) | null = null;
  private lull: (() => Promise<void>) | null = null;
  /** Each session's background work, scheduled by its phase (session-upkeep.ts). */
  private readonly upkeep: SessionUpkeep;

  /**
   * `store` keeps verified indexes in the user data folder so a reopen reads only what was
   * appended; a full open's index is written `keepDelayMs` after it was verified.
   */
  constructor(
    readonly home: string,
    private readonly max = 4,
    private readonly store: IndexStore | null = null,
    keepDelayMs = 1000,
    /** Files opened by path, beside the home's sessions (opened-files.ts). */
    private readonly opened: OpenedFiles | null = null,
  ) {
    this.upkeep = new SessionUpkeep({
      store,
      keepDelayMs,
      queue: this.queue,
      steps: () => this.steps,
      beforeKeep: (s) => this.beforeKeeping?.(s),
      reread: (key, reason) => this.onRereading?.(key, reason),
      lull: () => this.lull?.() ?? Promise.resolve(),
    });
  }

  /**
   * Runs `f` on a session just before its index is kept, to bring what is kept with it up to
   * date: the backend folds the active chain's work there (`OpenSession.work`), so a reopen
   * extends that fold instead of reading every work entry again.
   */
  beforeKeep(f: (s: OpenSession) => void): void {
    this.beforeKeeping = f;
  }

  /**
   * Runs `f` when a session was read again whole outside a refresh (its kept index was found not
   * to describe the file, or a request read back a line that changed): the backend tells followers.
   */
  onReread(f: (key: SessionKey, reason: RereadReason) => void): void {
    this.onRereading = f;
  }

  /**
   * The check of a kept index (the file read again whole), and the hash check a first read in
   * steps deferred, wait for what `f` resolves to before they start: the backend's lull in calls,
   * so that a reopen, or a first open at its read's end, answers its first screen first.
   */
  checksWaitFor(f: () => Promise<void>): void {
    this.lull = f;
  }

  /** From now on, sessions bigger than `steps.stepBytes` open in steps (default: read whole before answering). */
  readInSteps(steps: ReadInSteps): void {
    this.steps = steps;
  }

  /** The open session, if it is open, without marking it used (counters, diagnostics). */
  peek(key: SessionKey): OpenSession | undefined {
    return this.open.get(key);
  }

  /** The open session, if it is open (marks it recently used). */
  get(key: SessionKey): OpenSession | undefined {
    const s = this.open.get(key);
    if (s) {
      this.open.delete(key);
      this.open.set(key, s);
    }
    return s;
  }

  /**
   * Opens (or returns) a session and pins it in one step, so that other sessions opened
   * in the same burst cannot evict it before its follower holds it (unpin when done).
   */
  async acquirePinned(key: SessionKey, onProgress?: (p: ReadProgress) => void): Promise<OpenSession> {
    this.pin(key);
    try {
      return await this.acquire(key, onProgress);
    } catch (e) {
      this.unpin(key);
      throw e;
    }
  }

  /** Opens (or returns) a session; rejects with the file system's error when it cannot be read. */
  async acquire(key: SessionKey, onProgress?: (p: ReadProgress) => void): Promise<OpenSession> {
    const s = this.get(key);
    if (s) return s;
    let p = this.opening.get(key);
    if (!p) {
      p = this.load(key, onProgress).finally(() => this.opening.delete(key));
      this.opening.set(key, p);
    }
    return p;
  }

  private async load(key: SessionKey, onProgress?: (p: ReadProgress) => void): Promise<OpenSession> {
    const opened = await openLedger(
      this.home,
      key,
      this.store,
      {
        onProgress,
        maxBytes: this.steps?.stepBytes,
        firstBytes: this.steps?.firstBytes,
        noteFullCosts: NOTES_BPT,
        deferHashCheck: this.steps !== null,
      },
      this.opened,
    );
    const { ledger, resumed, turns } = opened;
    const phase = firstPhase(0, {
      moreToRead: ledger.moreToRead,
      keptUnchecked: ledger.keptUnverified,
      hashesDeferred: ledger.hashCheckPending,
    });
    const s = new OpenSession(
      {
        ...opened,
        key,
        layout: layoutOnOpen(ledger.index, opened.layout),
        work: opened.work === null ? null : { index: ledger.index, fold: opened.work },
        keptTurns: turns?.columns.bpt.length ?? 0,
        // A full read, a first read in steps, or a resume that still read a lot: worth keeping for the next open.
        keepWanted:
          this.store !== null && (!resumed || ledger.moreToRead || ledger.stats.bytesRead >= this.store.minBytes),
      },
      phase,
    );
    // The closed turns' costs as they were kept: a reopen's first leaf shapes only newer turns.
    if (turns !== null) adoptTurnColumns(ledger, turns.columns, turns.entries);
    this.open.set(key, s);
    this.evict();
    // First rows answer from the kept index at once; then it is checked against the file (its phase's work).
    this.upkeep.enter(s);
    return s;
  }

  /**
   * A request read back a line that no longer holds the entry the reading put there
   * (LedgerChangedError): the session of that ledger is read again whole, in its queue (once,
   * however many requests found it: a reading read again is a new generation, and the work of the
   * one that found it is dropped). False when no open session reads that ledger.
   */
  async rereadChanged(ledger: Ledger): Promise<boolean> {
    for (const [key, s] of this.open) {
      if (s.ledger !== ledger) continue;
      await this.queue.run(
        key,
        s.jobs.whileAt(s.phase.generation, () => this.upkeep.reread(s, 'rewritten')),
      );
      return true;
    }
    return false;
  }

  /**
   * Opens (or returns) a session read to its end: what needs the whole file (a branch's
   * parent, search, cost, export) never sees a session still being read in steps. The rest is
   * read at once, in turn with the refreshes; the next step announces it to followers — after a
   * turn of the event loop, so that the request waiting here answers first: that announcement
   * sums every entry just read (on the 100 MB session 25-50 ms in code still cold, before the
   * active leaf's panes when it ran first).
   */
  async acquireWhole(key: SessionKey, onProgress?: (p: ReadProgress) => void): Promise<OpenSession> {
    const s = await this.acquire(key, onProgress);
    if (s.reading) {
      const read = this.queue.run(key, () => this.finishReading(s, onProgress));
      void this.queue.run(key, () => new Promise((turn) => setImmediate(turn)));
      await this.waitingForRead(key, read);
    }
    return s;
  }

  /** Reads the rest of a session that is being read in steps (in its queue). */
  private async finishReading(s: OpenSession, onProgress?: (p: ReadProgress) => void): Promise<void> {
    if (!s.reading) return;
    const yieldTo = this.readTurn(s.key);
    this.afterRead(s, await s.ledger.refresh({ onProgress, ...(yieldTo && { yieldTo }) }));
  }

  /**
   * What a read that follows a first open awaits before each chunk (ReadTurns): the calls in
   * flight answer first, but for those that wait for this very reading.
   */
  private readTurn(key: SessionKey): (() => Promise<void>) | undefined {
    const turns = this.steps?.turns;
    return turns && (() => turns.turn(() => this.readWaiters.get(key) ?? 0));
  }

  /** Waits for `p`, a read of `key` queued for a caller: the reading does not wait for that caller. */
  private async waitingForRead<T>(key: SessionKey, p: Promise<T>): Promise<T> {
    this.readWaiters.set(key, (this.readWaiters.get(key) ?? 0) + 1);
    this.steps?.turns?.changed();
    try {
      return await p;
    } finally {
      const n = (this.readWaiters.get(key) ?? 1) - 1;
      if (n > 0) this.readWaiters.set(key, n);
      else this.readWaiters.delete(key);
    }
  }

  /**
   * Brings a session up to what its ledger just read (`r`): a reading started over is a new
   * generation; the read that reached the end of a first read in steps lays the tree out whole
   * (no extend first, then a rebuild); any other extends it.
   */
  private afterRead(s: OpenSession, r: RefreshResult): void {
    const wasReading = s.reading;
    if (r.kind === 'reloaded') this.upkeep.restarted(s);
    if (wasReading && !s.ledger.moreToRead) this.upkeep.readToEnd(s);
    else settle(s);
  }

  /** Writes the indexes still to keep now and waits for every write (before the process ends; tests). */
  async flushKept(): Promise<void> {
    await this.upkeep.flush(this.open.values());
  }

  /**
   * Runs `fn` on an open session in turn with its refreshes (a branch catches the ledger
   * up under the agent's lock, so nothing else may read into it meanwhile), keeping it
   * open throughout; the next `refresh` announces what `fn` read.
   */
  withSession<T>(key: SessionKey, fn: (s: OpenSession) => Promise<T>): Promise<T> {
    this.pin(key);
    const run = async (): Promise<T> => {
      const s = this.open.get(key);
      if (!s) throw Object.assign(new Error(`session ${key} is not open`), { code: 'ENOENT' });
      try {
        return await fn(s);
      } finally {
        // A branch that found the file rewritten read it again from byte 0: a new generation.
        if (s.layoutIndex !== s.ledger.index) this.upkeep.restarted(s);
        settle(s); // views stay consistent with what `fn` read; the next refresh announces it
      }
    };
    return this.waitingForRead(key, this.queue.run(key, run)).finally(() => this.unpin(key));
  }

  /**
   * §7 on an open session: the append runs in turn with the session's refreshes, and only
   * into the file that was opened and checked (its real path now is the one checked then;
   * appendBranch also checks device and inode). The next `refresh` announces the new line.
   */
  async branch(key: SessionKey, parentId: string, text: string, stats?: BranchLockStats): Promise<BranchResult> {
    await this.acquirePinned(key);
    try {
      return await this.withSession(key, async (s) => {
        await this.finishReading(s); // a branch links to the file's real last line
        // A parent is never taken from a kept index not yet checked against the file.
        await this.upkeep.checkKept(s);
        let now: string;
        try {
          now = realpathSync(s.path);
        } catch (e) {
          throw new BranchError('unreadable', `cannot resolve ${s.key}: ${(e as Error).message}; nothing was written`);
        }
        if (now !== s.realPath) {
          throw new BranchError(
            'changed',
            `${s.key} now leads to ${now}, not to the file that was opened (${s.realPath}); nothing was written`,
          );
        }
        return appendBranch(s.ledger, parentId, text, { stats });
      });
    } finally {
      this.unpin(key);
    }
  }

  /** Keeps a session open while someone follows it. */
  pin(key: SessionKey): void {
    this.pins.set(key, (this.pins.get(key) ?? 0) + 1);
  }

  unpin(key: SessionKey): void {
    const n = (this.pins.get(key) ?? 0) - 1;
    if (n > 0) this.pins.set(key, n);
    else this.pins.delete(key);
    this.evict();
  }

  private evict(): void {
    let unpinned = [...this.open.keys()].filter((k) => !this.pins.has(k));
    while (unpinned.length > this.max) {
      const s = this.open.get(unpinned[0]);
      if (s) this.upkeep.leaving(s);
      this.drop(unpinned[0]);
      unpinned = unpinned.slice(1);
    }
  }

  /** Closes a session's file: it is removed, and its scheduler drops every job still to run (a keep too: see `leaving`). */
  drop(key: SessionKey): void {
    const s = this.open.get(key);
    if (!s) return;
    s.move({ type: 'removed' });
    s.ledger.close();
    this.open.delete(key);
  }

  /**
   * Reads what changed in an open session's file (serialized per session); null when not open.
   * `changed`: a change event told of it (the watcher): if the file did not grow, the bytes already
   * read are checked (a rewrite in place keeps the size) and, when they differ, read again whole.
   */
  refresh(key: SessionKey, changed = false): Promise<SessionChange | null> {
    return this.queue.run(key, () => this.refreshNow(key, changed));
  }

  private async refreshNow(key: SessionKey, changed: boolean): Promise<SessionChange | null> {
    const s = this.open.get(key);
    if (!s) return null;
    let ino: number;
    try {
      ino = statSync(s.path).ino;
    } catch {
      this.drop(key);
      return { kind: 'removed' };
    }
    if (ino !== s.ino) return this.replaced(s);
    const steps = s.reading ? this.steps : null;
    const yieldTo = steps ? this.readTurn(key) : undefined;
    const r = await s.ledger.refresh(
      steps ? { maxBytes: steps.stepBytes, changed, ...(yieldTo && { yieldTo }) } : { changed },
    );
    if (s.phase.name === 'removed') return null; // closed meanwhile
    this.afterRead(s, r);
    this.upkeep.nextStep(s);
    if (r.kind === 'reloaded' || s.reloadUnannounced) {
      s.reloadUnannounced = false;
      s.announced = s.ledger.index.count;
      return r.kind === 'reloaded' ? r : { kind: 'reloaded', reason: 'rewritten' };
    }
    // Announce from what followers know, which includes entries a branch read since.
    const count = s.ledger.index.count;
    const bytes = r.kind === 'appended' ? r.bytes : 0;
    const firstNew = s.announced;
    s.announced = count;
    if (s.stepsUnannounced) {
      // Every step is told, even one that found no entry: the last one ends the reading.
      if (!s.reading) s.stepsUnannounced = false;
      return { kind: 'appended', firstNew, newEntries: count - firstNew, bytes, step: s.reading ? 'more' : 'last' };
    }
    if (count === firstNew) return { kind: 'unchanged' };
    return { kind: 'appended', firstNew, newEntries: count - firstNew, bytes };
  }

  /**
   * The session's path now leads to another file (renamed over it): our descriptor still reads the
   * old one. The new file is checked like any other (a FIFO or a foreign link is refused, and the
   * old reading stays), read whole, and is the session's next generation.
   */
  private async replaced(s: OpenSession): Promise<SessionChange | null> {
    const opened = await openLedger(this.home, s.key, null, { noteFullCosts: NOTES_BPT }, this.opened);
    if (s.phase.name === 'removed') {
      opened.ledger.close();
      return null;
    }
    const ledger = opened.ledger;
    ledger.appendOnlyBreaks.push(...s.ledger.appendOnlyBreaks, { at: new Date().toISOString(), reason: 'rewritten' });
    s.ledger.close();
    s.ledger = ledger;
    s.ino = opened.ino;
    s.dev = opened.dev;
    s.realPath = opened.realPath;
    s.layout = layoutOnOpen(ledger.index, null);
    s.layoutIndex = ledger.index;
    s.revision++;
    s.announced = ledger.index.count;
    s.stepsUnannounced = false;
    s.reloadUnannounced = false;
    this.upkeep.restarted(s);
    return { kind: 'reloaded', reason: 'replaced' };
  }

  /** Keys of open sessions. */
  keys(): SessionKey[] {
    return [...this.open.keys()];
  }

  closeAll(): void {
    for (const k of [...this.open.keys()]) this.drop(k);
  }

  /** Keeps what is to keep, then closes every session (the backend's close). */
  async close(): Promise<void> {
    for (const s of this.open.values()) this.upkeep.leaving(s);
    await this.flushKept();
    this.closeAll();
  }
}
