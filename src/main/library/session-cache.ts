import { realpathSync, statSync } from 'node:fs';
import type { SessionKey } from '../../shared/api';
import { KeyedQueue } from '../../shared/keyed-queue';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { appendBranch, BranchError, type BranchLockStats, type BranchResult } from '../core/branch-append';
import type { HashCheckResult, Ledger, ReadProgress } from '../core/ledger';
import type { LedgerIndex } from '../core/ledger-index';
import type { TreeLayout } from '../core/tree-layout';
import { adoptTurnsText, exportTurns, keptTurnCount } from '../core/turn-cache';
import type { WorkFold } from '../core/work-fold';
import type { IndexStore } from './index-store';
import { openLedger } from './open-ledger';
import type { OpenedFiles } from './opened-files';
import { layoutAtEnd, layoutOnOpen, settle, wholeLayout } from './session-layout';

/**
 * Sessions note their messages' Full costs while read (full-notes.ts) at the default profile's
 * bytes_per_token, the one a first leaf is asked with; another is costed from the lines.
 */
const NOTES_BPT = DEFAULT_PROFILE.bytes_per_token;

/** Ids a reopen maps between two requests (~2-4 ms in code still cold): a request waits at most that. */
const ID_MAP_STEP = 4096;

/** Bytes a deferred hash check hashes between turns of the event loop (~6 ms of sha256 here). */
const HASH_CHECK_STEP = 4 << 20;

/** One opened session: its ledger (index read once), its tree layout, and its file identity. */
export interface OpenSession {
  key: SessionKey;
  path: string;
  ledger: Ledger;
  layout: TreeLayout;
  /** Bumped on every change, so derived views (warning lines) know when to recompute. */
  revision: number;
  /** Inode at open: a file replaced by rename keeps our descriptor on the old one. */
  ino: number;
  /** Device at open (with the inode, what a kept index is keyed by). */
  dev: number;
  /** The file's real path when it was opened and checked (session-file.ts): the only path a branch writes to. */
  realPath: string;
  /** Entries placed in `layout` and announced to followers; the ledger may have read more (a branch catches up). */
  announced: number;
  /** The index `layout` was built on (a ledger read again from byte 0 has a new one). */
  layoutIndex: LedgerIndex;
  /** The ledger was read again (a branch caught up on a rewritten file) and followers were not told yet. */
  reloadUnannounced: boolean;
  /**
   * A first open answered before the end of the file (see `readInSteps`): the rest is read in
   * steps, each announced like an append. False once the ledger has read to the end.
   */
  reading: boolean;
  /** Followers were told the session is read in steps, and not yet that it has read to the end. */
  stepsUnannounced: boolean;
  /**
   * The active chain's work fold as last sent (session-info.ts `activeWork`), on the index it was
   * taken on: an append or a reopen extends it instead of reading every work entry again.
   */
  work: { index: LedgerIndex; fold: WorkFold } | null;
  /** Closed turns' costs in the index kept last (or restored from it): closing keeps it again when there are more. */
  keptTurns: number;
}

/**
 * How a big session is opened ("show first rows while a first open is still reading"):
 * the open answers after `firstBytes`, then `stepBytes` more are read per step, in turn with
 * the session's other refreshes; `onStep(key)` runs each step (the backend refreshes the
 * session and tells its followers, as for an append).
 */
export interface ReadInSteps {
  firstBytes: number;
  stepBytes: number;
  onStep: (key: SessionKey) => void;
  /**
   * Such a first read checks the hash chain after it (Ledger `deferHashCheck`): the check runs in
   * steps once the session is read to its end and the requests then waiting were answered, and
   * `onHashesChecked` runs when it is done (the backend tells followers and the library).
   */
  onHashesChecked?: (key: SessionKey, result: HashCheckResult) => void;
}

/** What a refresh of an open session found. */
export type SessionChange =
  | { kind: 'unchanged' }
  | {
      kind: 'appended';
      firstNew: number;
      newEntries: number;
      bytes: number;
      /** A step of a first open read in steps: more to come, or the one that read to the end. */
      step?: 'more' | 'last';
    }
  | { kind: 'reloaded'; reason: RereadReason | 'shrunk' | 'replaced' }
  | { kind: 'removed' };

/**
 * Why a session was read again whole: its bytes changed in place (a change that did not grow it, a
 * line read back that is no longer the entry read there, a branch's proof under the lock), or the
 * kept index it was restored from does not describe the file.
 */
export type RereadReason = 'rewritten' | 'kept';

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
  /** Sessions whose index is to be kept once their open has answered (see `keepSoon`). */
  private toKeep = new Map<OpenSession, NodeJS.Timeout>();
  private keeping = new Set<Promise<unknown>>();
  private steps: ReadInSteps | null = null;
  private beforeKeeping: ((s: OpenSession) => void) | null = null;
  private onRereading: ((key: SessionKey, reason: RereadReason) => void) | null = null;

  /**
   * `store` keeps verified indexes in the user data folder so a reopen reads only what was
   * appended; a full open's index is written `keepDelayMs` after it answered.
   */
  constructor(
    readonly home: string,
    private readonly max = 4,
    private readonly store: IndexStore | null = null,
    private readonly keepDelayMs = 1000,
    /** Files opened by path, beside the home's sessions (opened-files.ts). */
    private readonly opened: OpenedFiles | null = null,
  ) {}

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

  /** From now on, sessions bigger than `steps.firstBytes` open in steps (default: read whole before answering). */
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
        maxBytes: this.steps?.firstBytes,
        noteFullCosts: NOTES_BPT,
        deferHashCheck: this.steps !== null,
      },
      this.opened,
    );
    const { ledger, ino, dev, path, realPath, resumed, work, turns } = opened;
    const layout = layoutOnOpen(ledger.index, opened.layout);
    const announced = ledger.index.count;
    const s: OpenSession = {
      key,
      path,
      ledger,
      layout,
      revision: 0,
      ino,
      dev,
      realPath,
      announced,
      layoutIndex: ledger.index,
      reloadUnannounced: false,
      reading: ledger.moreToRead,
      stepsUnannounced: ledger.moreToRead,
      work: work === null ? null : { index: ledger.index, fold: work },
      keptTurns: turns?.count ?? 0,
    };
    // The closed turns' costs as they were kept: a reopen's first leaf shapes only newer turns.
    if (turns !== null) adoptTurnsText(ledger, turns.text, turns.entries);
    this.open.set(key, s);
    this.evict();
    // First rows answer from the kept index at once; then it is checked against the file.
    if (resumed) this.checkKeptSoon(s);
    if (s.reading) this.nextStep(key);
    else {
      this.mapIdsSoon(s);
      // A full read, or a resume that still read a lot: keep the reading for the next open.
      if (this.store && (!resumed || ledger.stats.bytesRead >= this.store.minBytes)) this.keepSoon(s);
    }
    return s;
  }

  /**
   * The hash check a first read in steps deferred, once it has read to the end: after the
   * requests waiting for that end were answered (a timer runs after their continuations), in
   * steps that let other requests answer between them. Then followers hear of it (also when
   * something that needed every warning finished it first; not for a reading that deferred none).
   */
  private checkHashesSoon(s: OpenSession): void {
    setTimeout(() => {
      s.ledger
        .checkHashes(HASH_CHECK_STEP)
        .then((result) => {
          if (result === null || this.open.get(s.key) !== s) return;
          if (result.mismatches > 0) s.revision++;
          this.steps?.onHashesChecked?.(s.key, result);
        })
        .catch((e: unknown) =>
          console.warn(`vak-explorer: checking the hash chain of ${s.key}: ${(e as Error).message}`),
        );
    }, 0);
  }

  /** Checks a session's kept index against its file once the requests now waiting were answered (in its queue). */
  private checkKeptSoon(s: OpenSession): void {
    setTimeout(() => {
      void this.queue
        .run(s.key, () => this.checkKept(s))
        .catch((e: unknown) =>
          console.warn(`vak-explorer: checking the kept index of ${s.key}: ${(e as Error).message}`),
        );
    }, 0);
  }

  /**
   * A session restored from a kept index: the reading is checked against the file in steps
   * (Ledger.checkReading: read again from byte 0 and compared); when it differs, the kept index is
   * dropped and the file read whole, so the session shows exactly what a full read shows. Runs in
   * the session's queue.
   */
  private async checkKept(s: OpenSession): Promise<void> {
    if (this.open.get(s.key) !== s || !s.ledger.keptUnverified) return;
    const diff = await s.ledger.checkReading(HASH_CHECK_STEP);
    if (diff === null || this.open.get(s.key) !== s) return;
    console.warn(`vak-explorer: kept index of ${s.realPath} not used (${diff}); reading the file whole`);
    await this.store?.forget(s.realPath);
    await this.reread(s, 'kept');
  }

  /** Reads a session whole again (in its queue) and tells the backend: its views are derived again. */
  private async reread(s: OpenSession, reason: RereadReason): Promise<void> {
    await s.ledger.reload('rewritten');
    s.work = null;
    s.keptTurns = 0;
    if (s.reading) {
      s.stepsUnannounced = false;
      this.readToEnd(s);
    } else settle(s);
    // Told here, not by the next refresh.
    s.reloadUnannounced = false;
    s.announced = s.ledger.index.count;
    this.onRereading?.(s.key, reason);
  }

  /**
   * A request read back a line that no longer holds the entry the reading put there
   * (LedgerChangedError): the session of that ledger is read again whole, in its queue (once,
   * however many requests found it). False when no open session reads that ledger.
   */
  async rereadChanged(ledger: Ledger): Promise<boolean> {
    for (const [key, s] of this.open) {
      if (s.ledger !== ledger) continue;
      const generation = ledger.generation;
      await this.queue.run(key, async () => {
        if (this.open.get(key) === s && s.ledger.generation === generation) await this.reread(s, 'rewritten');
      });
      return true;
    }
    return false;
  }

  /**
   * Maps a session's ids a few thousand at a time between requests (LedgerIndex.mapSomeIds), once it
   * is read, when they do not increase (those that do are searched, never mapped): a reopen maps
   * none, and a first read only those it looked up, so that a leaf asked for by id finds them mapped
   * (1M ids: ~0.5 s in one go) without the first rows or the active leaf's panes waiting. A lookup
   * meanwhile maps the rest at once; a session that left or was read again stops it.
   */
  private mapIdsSoon(s: OpenSession): void {
    const ix = s.ledger.index;
    if (ix.unmappedIds === 0) return;
    const step = (): void => {
      if (this.open.get(s.key) !== s || s.ledger.index !== ix) return;
      if (!ix.mapSomeIds(ID_MAP_STEP)) setImmediate(step);
    };
    setImmediate(step);
  }

  /** Asks for the next step of a session read in steps (after what is queued: requests answer in between). */
  private nextStep(key: SessionKey): void {
    const steps = this.steps;
    if (steps) setImmediate(() => steps.onStep(key));
  }

  /**
   * A session read to its end (was `reading`). Its layout is built again whole when its steps
   * placed it otherwise than a whole read (TreeLayout.isWhole: appends never move drawn rows), as a
   * session must look the same however it was read. Followers read their rows again (the last
   * step). Then its index is kept, now that it is whole.
   */
  private readToEnd(s: OpenSession): void {
    s.reading = false;
    layoutAtEnd(s); // (read again from byte 0 on the way: followers are told)
    s.revision++;
    this.checkHashesSoon(s);
    this.mapIdsSoon(s);
    // (Kept a second later: the check is done by then, or keeping it finishes it.)
    if (this.store) this.keepSoon(s);
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
      await read;
    }
    return s;
  }

  /** Reads the rest of a session that is being read in steps (in its queue). */
  private async finishReading(s: OpenSession, onProgress?: (p: ReadProgress) => void): Promise<void> {
    if (!s.reading) return;
    await s.ledger.refresh({ onProgress });
    this.readToEnd(s);
  }

  /** Keeps a session's index a moment after its open answered (off the path of its first requests). */
  private keepSoon(s: OpenSession): void {
    const timer = setTimeout(() => {
      this.toKeep.delete(s);
      this.keepNow(s);
    }, this.keepDelayMs);
    timer.unref();
    this.toKeep.set(s, timer);
  }

  private keepNow(s: OpenSession): void {
    if (!this.store) return;
    // Restored and not yet checked against the file: kept again once it is (checkKept runs first).
    if (s.ledger.keptUnverified) {
      if (this.open.get(s.key) === s) this.keepSoon(s);
      return;
    }
    try {
      this.beforeKeeping?.(s);
    } catch (e) {
      // What is kept with the index is a cache: without it the index is still worth keeping.
      console.warn(`vak-explorer: keeping the index of ${s.key} without its work fold: ${(e as Error).message}`);
    }
    const turns = exportTurns(s.ledger);
    s.keptTurns = turns?.full.length ?? 0;
    const p = this.store
      .keep(
        s.ledger,
        { realPath: s.realPath, dev: s.dev, ino: s.ino },
        { work: s.work?.index === s.ledger.index ? s.work.fold : null, turns, layout: wholeLayout(s) },
      )
      .catch((e: unknown) =>
        console.warn(`vak-explorer: could not keep the index of ${s.key}: ${(e as Error).message}`),
      )
      .finally(() => this.keeping.delete(p));
    this.keeping.add(p);
  }

  /** Writes the indexes still to keep now and waits for every write (before the process ends; tests). */
  async flushKept(): Promise<void> {
    for (const [s, timer] of [...this.toKeep]) {
      clearTimeout(timer);
      this.toKeep.delete(s);
      this.keepNow(s);
    }
    await Promise.all([...this.keeping]);
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
        settle(s); // views stay consistent with what `fn` read; the next refresh announces it
      }
    };
    return this.queue.run(key, run).finally(() => this.unpin(key));
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
        if (s.ledger.keptUnverified) await this.checkKept(s);
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
      this.keepOnLeaving(unpinned[0]);
      this.drop(unpinned[0]);
      unpinned = unpinned.slice(1);
    }
  }

  /** Closes a session's file (a keep still pending is dropped with it: see keepOnLeaving). */
  drop(key: SessionKey): void {
    const s = this.open.get(key);
    if (!s) return;
    const timer = this.toKeep.get(s);
    if (timer) clearTimeout(timer);
    this.toKeep.delete(s);
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
    if (ino !== s.ino) {
      // Replaced by another file (rename over it): our descriptor still reads the old one.
      // The new file is checked like any other (a FIFO or a foreign link is refused, and
      // the old reading stays).
      const {
        resumed: _,
        work: _work,
        turns: _turns,
        layout: _layout,
        ...opened
      } = await openLedger(this.home, key, null, { noteFullCosts: NOTES_BPT }, this.opened);
      const ledger = opened.ledger;
      ledger.appendOnlyBreaks.push(...s.ledger.appendOnlyBreaks, { at: new Date().toISOString(), reason: 'rewritten' });
      s.ledger.close();
      const layout = layoutOnOpen(ledger.index, null);
      Object.assign(s, {
        ...opened,
        layout,
        revision: s.revision + 1,
        announced: ledger.index.count,
        work: null,
        keptTurns: 0,
      });
      s.reading = s.stepsUnannounced = false;
      s.reloadUnannounced = false;
      s.layoutIndex = ledger.index;
      return { kind: 'reloaded', reason: 'replaced' };
    }
    const stepping = s.reading && this.steps !== null;
    const r = await s.ledger.refresh(stepping ? { maxBytes: this.steps?.stepBytes, changed } : { changed });
    if (r.kind === 'reloaded') {
      s.work = null;
      s.keptTurns = 0;
    }
    // The step that reads to the end lays the tree out whole (no extend first, then a rebuild).
    if (s.reading && !(stepping && s.ledger.moreToRead)) this.readToEnd(s);
    else settle(s);
    if (s.reading) this.nextStep(key);
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

  /** Keys of open sessions. */
  keys(): SessionKey[] {
    return [...this.open.keys()];
  }

  closeAll(): void {
    for (const k of [...this.open.keys()]) this.drop(k);
  }

  /**
   * Before a session is closed (evicted, or the app closes): its keep still pending now, or a
   * keep again when its turn cache holds more closed turns' costs than the index kept last (the
   * first keep comes soon after the open, usually before any leaf was shown).
   */
  private keepOnLeaving(key: SessionKey): void {
    const s = this.open.get(key);
    if (!s || !this.store || s.reading) return;
    const timer = this.toKeep.get(s);
    if (timer) {
      clearTimeout(timer);
      this.toKeep.delete(s);
      this.keepNow(s);
    } else if (keptTurnCount(s.ledger) > s.keptTurns) this.keepNow(s);
  }

  /** Keeps what is to keep, then closes every session (the backend's close). */
  async close(): Promise<void> {
    for (const k of this.open.keys()) this.keepOnLeaving(k);
    await this.flushKept();
    this.closeAll();
  }
}
