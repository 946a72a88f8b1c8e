/**
 * The lifecycle of an open session, as one state machine: every phase it can be in, and the one
 * function that moves it from phase to phase. A session is read (in steps, for a big first open),
 * then whole, then verified against its file, then kept (its index written for the next open);
 * a reading that starts over (its bytes changed, its kept index was wrong, the file was replaced)
 * is a new generation, and a session whose file went away or that was closed is removed for good.
 *
 * The generation is what the session's scheduled work carries (session-scheduler.ts): work made
 * for an earlier generation is dropped, so no job has to ask whether its session is still the
 * one it was made for.
 */

/** A check still to pass before a session read to its end is known to describe its file. */
export type PendingCheck =
  /** Restored from a kept index: read again from byte 0 and compared (Ledger.checkReading). */
  | 'kept-check'
  /** A first read in steps deferred its hash chain check (Ledger.checkHashes). */
  | 'hash-check';

export type SessionPhase =
  /**
   * A first open answered before the end of the file: the rest is read in steps. Its hash chain
   * check was deferred to the end (`hashesDeferred`), or its kept index is still to check.
   */
  | {
      readonly name: 'reading';
      readonly generation: number;
      readonly keptUnchecked: boolean;
      readonly hashesDeferred: boolean;
    }
  /** Read to its end; one check is still to pass (the only kind of check such a reading needs). */
  | { readonly name: 'whole'; readonly generation: number; readonly awaiting: PendingCheck }
  /** Read to its end and known to describe its file: its index may be kept. */
  | { readonly name: 'verified'; readonly generation: number }
  /** Its index was written to the store (again when its closed turns grew since). */
  | { readonly name: 'kept'; readonly generation: number }
  /** Closed, or its file went away: nothing runs for it again. */
  | { readonly name: 'removed'; readonly generation: number };

export type PhaseName = SessionPhase['name'];

export type SessionEvent =
  /** The last step read to the end of the file. */
  | { readonly type: 'readToEnd' }
  /** A pending check passed. */
  | { readonly type: 'checked'; readonly check: PendingCheck }
  /** Its index was written to the store. */
  | { readonly type: 'kept' }
  /** Read again from byte 0 (or replaced by another file): a new generation; `moreToRead` while in steps. */
  | { readonly type: 'reloaded'; readonly moreToRead: boolean }
  /** Closed, or its file went away. */
  | { readonly type: 'removed' };

/** A transition the lifecycle does not have (a bug in its caller, never a file's doing). */
export class RefusedTransition extends Error {
  constructor(
    readonly from: SessionPhase,
    readonly event: SessionEvent,
  ) {
    super(`an open session cannot take '${event.type}' while ${describe(from)}`);
    this.name = 'RefusedTransition';
  }
}

function describe(p: SessionPhase): string {
  return p.name === 'whole' ? `whole awaiting its ${p.awaiting}` : p.name;
}

/** How a session starts, from what its open read. */
export function firstPhase(
  generation: number,
  opened: { moreToRead: boolean; keptUnchecked: boolean; hashesDeferred: boolean },
): SessionPhase {
  const { moreToRead, keptUnchecked, hashesDeferred } = opened;
  if (moreToRead) return { name: 'reading', generation, keptUnchecked, hashesDeferred };
  return afterReading(generation, keptUnchecked, hashesDeferred);
}

function afterReading(generation: number, keptUnchecked: boolean, hashesDeferred: boolean): SessionPhase {
  // A reading resumed from a kept index hashes what it reads since: it never defers a hash check too.
  if (keptUnchecked) return { name: 'whole', generation, awaiting: 'kept-check' };
  if (hashesDeferred) return { name: 'whole', generation, awaiting: 'hash-check' };
  return { name: 'verified', generation };
}

/** The phase `event` moves `p` to; throws RefusedTransition for a move the lifecycle does not have. */
export function transition(p: SessionPhase, event: SessionEvent): SessionPhase {
  const g = p.generation;
  if (p.name === 'removed') throw new RefusedTransition(p, event);
  switch (event.type) {
    case 'removed':
      return { name: 'removed', generation: g + 1 };
    case 'reloaded':
      // A reading from byte 0 hashes as it reads, and no kept index is left to check.
      return event.moreToRead
        ? { name: 'reading', generation: g + 1, keptUnchecked: false, hashesDeferred: false }
        : { name: 'verified', generation: g + 1 };
    case 'readToEnd':
      if (p.name !== 'reading') break;
      // (A check finished early, by what needed every warning, is still told as its phase ends.)
      return afterReading(g, p.keptUnchecked, p.hashesDeferred);
    case 'checked':
      // A kept index is checked as soon as it is opened, also while the rest is still read in steps.
      if (p.name === 'reading' && p.keptUnchecked && event.check === 'kept-check') {
        return { ...p, keptUnchecked: false };
      }
      if (p.name === 'whole' && p.awaiting === event.check) return { name: 'verified', generation: g };
      break;
    case 'kept':
      if (p.name === 'verified' || p.name === 'kept') return { name: 'kept', generation: g };
      break;
  }
  throw new RefusedTransition(p, event);
}

/** Whether a session in `p` is read to its end (what needs the whole file may use it as it is). */
export function isWhole(p: SessionPhase): boolean {
  return p.name !== 'reading' && p.name !== 'removed';
}
