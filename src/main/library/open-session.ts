/**
 * One opened session (session-cache.ts holds a few): its ledger and layout, its file's identity,
 * what its followers were told, its lifecycle phase (session-state.ts) and the scheduler of its
 * background work (session-scheduler.ts). Its phase changes in one place, `move`, which also
 * moves its scheduler to the new generation.
 */
import { NO_GENERATION, type SessionKey } from '../../shared/api';
import type { Ledger } from '../core/ledger';
import type { HashCheckResult } from '../core/ledger-options';
import type { LedgerIndex } from '../core/ledger-index';
import type { TreeLayout } from '../core/tree-layout';
import type { WorkFold } from '../core/work-fold';
import type { ReadTurns } from './read-turns';
import type { LaidOutSession } from './session-layout';
import { SessionScheduler } from './session-scheduler';
import { transition, type SessionEvent, type SessionPhase } from './session-state';

/**
 * How a big session is opened ("show first rows while a first open is still reading"): a file
 * bigger than `stepBytes` answers its open after `firstBytes`, then `stepBytes` more are read per
 * step, in turn with the session's other refreshes; `onStep(key)` runs each step (the backend
 * refreshes the session and tells its followers, as for an append).
 */
export interface ReadInSteps {
  firstBytes: number;
  stepBytes: number;
  onStep: (key: SessionKey) => void;
  /** When a step reads its next chunk (after the calls in flight); absent: one turn of the event loop. */
  turns?: ReadTurns;
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

/** What an open session is made from (its phase and scheduler are its own). */
export interface OpenedSession {
  key: SessionKey;
  path: string;
  ledger: Ledger;
  layout: TreeLayout;
  ino: number;
  dev: number;
  realPath: string;
  work: { index: LedgerIndex; fold: WorkFold } | null;
  keptTurns: number;
  keepWanted: boolean;
}

/**
 * The last reading number given (OpenSession.readingId). From a random start, so that a number a
 * page kept from an earlier serve process names no reading of this one; never NO_GENERATION.
 */
let lastReadingId = NO_GENERATION + 1 + Math.floor(Math.random() * 2 ** 40);

export class OpenSession implements LaidOutSession {
  readonly key: SessionKey;
  readonly path: string;
  ledger: Ledger;
  layout: TreeLayout;
  /** Bumped on every change, so derived views (warning lines) know when to recompute. */
  revision = 0;
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
  reloadUnannounced = false;
  /** Followers were told the session is read in steps, and not yet that it has read to the end. */
  stepsUnannounced: boolean;
  /**
   * The active chain's work fold as last sent (session-info.ts `activeWork`), on the index it was
   * taken on: an append or a reopen extends it instead of reading every work entry again.
   */
  work: { index: LedgerIndex; fold: WorkFold } | null;
  /** Closed turns' costs in the index kept last (or restored from it): closing keeps it again when there are more. */
  keptTurns: number;
  /** Its index is to be kept once verified (a full read, or a resume that still read a lot). */
  keepWanted: boolean;
  /**
   * Names this reading of the file among every reading in this process (SessionInfo.generation):
   * a new one for each open and each new generation of the phase. Entries read under one number
   * never change, so a follower that names it (a subscription's `since`) can be told only what came after.
   */
  private currentReading: number;
  /** Where it is in its lifecycle; changed by `move` only. */
  private current: SessionPhase;
  /** Its background work, each job made for one generation of `phase`. */
  readonly jobs: SessionScheduler;

  constructor(o: OpenedSession, phase: SessionPhase) {
    this.key = o.key;
    this.path = o.path;
    this.ledger = o.ledger;
    this.layout = o.layout;
    this.ino = o.ino;
    this.dev = o.dev;
    this.realPath = o.realPath;
    this.work = o.work;
    this.keptTurns = o.keptTurns;
    this.keepWanted = o.keepWanted;
    this.announced = o.ledger.index.count;
    this.layoutIndex = o.ledger.index;
    this.current = phase;
    this.currentReading = ++lastReadingId;
    this.stepsUnannounced = phase.name === 'reading';
    this.jobs = new SessionScheduler(phase.generation);
  }

  get phase(): SessionPhase {
    return this.current;
  }

  /** This reading's number (see `currentReading`). */
  get readingId(): number {
    return this.currentReading;
  }

  /** A first open still read in steps: more of the file is to read. */
  get reading(): boolean {
    return this.current.name === 'reading';
  }

  /**
   * Moves the session to the phase `event` leads to (session-state.ts `transition`, which refuses a
   * move the lifecycle does not have), and its scheduler to that phase's generation: the work of
   * an earlier one is dropped. A removed session takes no event: work that ends after its removal
   * changes nothing.
   */
  move(event: SessionEvent): SessionPhase {
    if (this.current.name === 'removed') return this.current;
    const generation = this.current.generation;
    this.current = transition(this.current, event);
    if (this.current.generation !== generation) this.currentReading = ++lastReadingId;
    if (this.current.name === 'removed') this.jobs.close();
    else this.jobs.advance(this.current.generation);
    return this.current;
  }
}
