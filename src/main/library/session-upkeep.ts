/**
 * An open session's background work, by phase (session-state.ts): entering a phase schedules what
 * that phase asks for on the session's scheduler, for that phase's generation —
 *   reading:  the next step (and the check of a kept index it was restored from);
 *   whole:    the check still pending (kept index, or deferred hash chain), and mapping its ids;
 *   verified: mapping its ids, and keeping its index (when wanted);
 *   kept, removed: nothing.
 * Work made for a generation the session left is dropped by its scheduler, never run.
 */
import type { SessionKey } from '../../shared/api';
import type { KeyedQueue } from '../../shared/keyed-queue';
import type { HashCheckResult } from '../core/ledger-options';
import { exportTurns, keptTurnCount } from '../core/turn-cache';
import type { IndexStore } from './index-store';
import type { OpenSession, ReadInSteps, RereadReason } from './open-session';
import { layoutAtEnd, settle, wholeLayout } from './session-layout';
import type { SessionEvent } from './session-state';

/** Ids a reopen maps between two requests: a request waits at most that. */
const ID_MAP_STEP = 4096;

/** Bytes a deferred check hashes (or reads again) between turns of the event loop. */
const CHECK_STEP = 4 << 20;

/**
 * Reports a background check that failed. A session closed meanwhile (the backend stopping, or
 * the session evicted) ends the check by closing its file: the check's error then says only that,
 * in the words of a read on a closed descriptor, and is not reported.
 */
function warn(what: string, s: OpenSession) {
  return (e: unknown): void => {
    if (s.phase.name === 'removed') return;
    console.warn(`vak-explorer: ${what} ${s.key}: ${(e as Error).message}`);
  };
}

/** What the upkeep needs of the cache that holds the sessions. */
export interface UpkeepHost {
  readonly store: IndexStore | null;
  readonly keepDelayMs: number;
  /** Refreshes and branches of one session run in turn; a check of a kept index runs in that turn too. */
  readonly queue: KeyedQueue<SessionKey>;
  steps(): ReadInSteps | null;
  beforeKeep(s: OpenSession): void;
  reread(key: SessionKey, reason: RereadReason): void;
  /** Resolves when a check (of a kept index, of a first read's hash chain) may start (SessionCache.checksWaitFor). */
  lull(): Promise<void>;
}

export class SessionUpkeep {
  private readonly keeping = new Set<Promise<unknown>>();

  constructor(private readonly host: UpkeepHost) {}

  /** Moves `s` (OpenSession.move) and schedules what its new phase asks for. */
  move(s: OpenSession, event: SessionEvent): void {
    const before = s.phase;
    if (s.move(event) !== before) this.enter(s);
  }

  /** Schedules the work of the phase `s` is in (once on open, then on every move). */
  enter(s: OpenSession): void {
    const p = s.phase;
    if (p.name === 'reading') {
      this.nextStep(s);
      if (p.keptUnchecked) this.checkKeptSoon(s);
    } else if (p.name === 'whole') {
      if (p.awaiting === 'kept-check') this.checkKeptSoon(s);
      else this.checkHashesSoon(s);
      this.mapIdsSoon(s);
    } else if (p.name === 'verified') {
      this.mapIdsSoon(s);
      if (s.keepWanted && this.host.store && !s.jobs.has('keep')) {
        s.jobs.at('keep', p.generation, this.host.keepDelayMs, () => this.keepNow(s));
      }
    }
  }

  /** Asks for the next step of a session read in steps (after what is queued: requests answer in between). */
  nextStep(s: OpenSession): void {
    const steps = this.host.steps();
    if (steps && s.reading && !s.jobs.has('step')) {
      s.jobs.at('step', s.phase.generation, 'immediate', () => steps.onStep(s.key));
    }
  }

  /**
   * A session read to its end (was `reading`). Its layout is built again whole when its steps
   * placed it otherwise than a whole read (TreeLayout.isWhole: appends never move drawn rows), as a
   * session must look the same however it was read. Followers read their rows again (the last step).
   */
  readToEnd(s: OpenSession): void {
    if (s.reading) this.move(s, { type: 'readToEnd' });
    layoutAtEnd(s); // (read again from byte 0 on the way: followers are told)
    s.revision++;
  }

  /** The session's ledger was read again from byte 0 (or is another file's): a new generation. */
  restarted(s: OpenSession): void {
    const wasReading = s.reading;
    s.work = null;
    s.keptTurns = 0;
    // Kept again only when it was still to be kept as its first open ends (not for each rewrite).
    s.keepWanted &&= wasReading;
    this.move(s, { type: 'reloaded', moreToRead: s.ledger.moreToRead });
  }

  /**
   * The hash check a first read in steps deferred, once it has read to the end: in a lull of the
   * calls, as a kept check. The first screen is asked while the read runs and answered at its end
   * (the active leaf's view: its plan, in steps); the check's steps beside it would share the
   * thread with it, step for step, and the panes wait for both. Then, in steps that let other
   * requests answer between them; followers hear of it (also when something that needed every
   * warning finished it first).
   */
  private checkHashesSoon(s: OpenSession): void {
    const g = s.phase.generation;
    s.jobs.at('hash-check', g, 'timeout', () => {
      s.jobs
        .after('hash-check', g, this.host.lull(), () =>
          s.jobs.after('hash-check', g, s.ledger.checkHashes(CHECK_STEP), (result) => this.hashesChecked(s, result)),
        )
        .catch(warn('checking the hash chain of', s));
    });
  }

  private hashesChecked(s: OpenSession, result: HashCheckResult | null): void {
    if (result === null) return; // read again from byte 0 meanwhile: that reading hashed as it read
    if (result.mismatches > 0) s.revision++;
    this.move(s, { type: 'checked', check: 'hash-check' });
    this.host.steps()?.onHashesChecked?.(s.key, result);
  }

  /** Checks a session's kept index against its file once the requests now waiting were answered (in its queue). */
  private checkKeptSoon(s: OpenSession): void {
    if (s.jobs.has('kept-check')) return;
    const g = s.phase.generation;
    s.jobs.at('kept-check', g, 'timeout', () => {
      // In a lull of the calls: the reopen's first rows and leaf view are asked right after the
      // open's answer, and would share the thread with the check's steps. (An append or a branch
      // meanwhile checks it first: Ledger.refresh.)
      s.jobs
        .after('kept-check', g, this.host.lull(), () => {
          const run = this.host.queue.run(
            s.key,
            s.jobs.whileAt(g, () => this.checkKept(s)),
          );
          return s.jobs.after('kept-check', g, run, () => undefined);
        })
        .catch(warn('checking the kept index of', s));
    });
  }

  /**
   * A session restored from a kept index: the reading is checked against the file in steps
   * (Ledger.checkReading: read again from byte 0 and compared); when it differs, the kept index is
   * dropped and the file read whole, so the session shows exactly what a full read shows. Runs in
   * the session's queue (a branch runs it first when it has not run yet).
   */
  async checkKept(s: OpenSession): Promise<void> {
    if (!s.ledger.keptUnverified) return;
    await s.jobs.after('checking', s.phase.generation, s.ledger.checkReading(CHECK_STEP), async (diff) => {
      if (diff === null) {
        if (!s.ledger.keptUnverified) this.move(s, { type: 'checked', check: 'kept-check' });
        return;
      }
      console.warn(`vak-explorer: kept index of ${s.realPath} not used (${diff}); reading the file whole`);
      await this.host.store?.forget(s.realPath);
      await this.reread(s, 'kept');
    });
  }

  /** Reads a session whole again (in its queue) and tells the backend: its views are derived again. */
  async reread(s: OpenSession, reason: RereadReason): Promise<void> {
    await s.jobs.after('reread', s.phase.generation, s.ledger.reload('rewritten'), () => {
      const wasReading = s.reading;
      this.restarted(s);
      if (wasReading) {
        s.stepsUnannounced = false;
        layoutAtEnd(s);
        s.revision++;
      } else settle(s);
      // Told here, not by the next refresh.
      s.reloadUnannounced = false;
      s.announced = s.ledger.index.count;
      this.host.reread(s.key, reason);
    });
  }

  /**
   * Maps a session's ids a few thousand at a time between requests (LedgerIndex.mapSomeIds), once it
   * is read, when they do not increase (those that do are searched, never mapped): a reopen maps
   * none, and a first read only those it looked up, so that a leaf asked for by id finds them mapped
   * without the first rows or the active leaf's panes waiting for all of them at once. A lookup
   * meanwhile maps the rest at once.
   */
  private mapIdsSoon(s: OpenSession): void {
    const ix = s.ledger.index;
    if (ix.unmappedIds === 0 || s.jobs.has('map-ids')) return;
    const g = s.phase.generation;
    const step = (): void => {
      if (!ix.mapSomeIds(ID_MAP_STEP)) s.jobs.at('map-ids', g, 'immediate', step);
    };
    s.jobs.at('map-ids', g, 'immediate', step);
  }

  private keepNow(s: OpenSession): void {
    const store = this.host.store;
    if (!store || (s.phase.name !== 'verified' && s.phase.name !== 'kept')) return;
    try {
      this.host.beforeKeep(s);
    } catch (e) {
      // What is kept with the index is a cache: without it the index is still worth keeping.
      console.warn(`vak-explorer: keeping the index of ${s.key} without its work fold: ${(e as Error).message}`);
    }
    const turns = exportTurns(s.ledger);
    s.keptTurns = turns?.full.length ?? 0;
    const write = store.keep(
      s.ledger,
      { realPath: s.realPath, dev: s.dev, ino: s.ino },
      { work: s.work?.index === s.ledger.index ? s.work.fold : null, turns, layout: wholeLayout(s) },
    );
    const p = s.jobs
      .after('kept', s.phase.generation, write, (written) => {
        if (written) this.move(s, { type: 'kept' });
      })
      .catch(warn('could not keep the index of', s))
      .finally(() => this.keeping.delete(p));
    this.keeping.add(p);
  }

  /**
   * Before a session is closed (evicted, or the app closes): its keep still pending now, or a
   * keep again when its turn cache holds more closed turns' costs than the index kept last (the
   * first keep comes soon after the open, usually before any leaf was shown). A hash check still
   * pending is finished first: the index is worth keeping, and keeping it needs the check.
   */
  leaving(s: OpenSession): void {
    if (!this.host.store || s.reading) return;
    if (s.phase.name === 'whole' && s.phase.awaiting === 'hash-check') {
      s.jobs.cancel('hash-check');
      s.ledger.warnings(); // (finishes the check)
      this.move(s, { type: 'checked', check: 'hash-check' });
    }
    if (s.jobs.runNow('keep')) return;
    if (keptTurnCount(s.ledger) > s.keptTurns) this.keepNow(s);
  }

  /** Writes the indexes of `sessions` still to keep now and waits for every write (before the process ends; tests). */
  async flush(sessions: Iterable<OpenSession>): Promise<void> {
    for (const s of sessions) s.jobs.runNow('keep');
    await Promise.all([...this.keeping]);
  }
}
