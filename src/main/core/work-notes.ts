import type { WorkEntry } from './entry-types';
import { typedEntry, type ValidLine } from './entry-validate';

/** What the §3 work fold takes of one work entry. */
export type WorkEvent = Pick<WorkEntry, 'ts' | 'work'>;

/**
 * The work entries' events, noted by the reader from the parse it does anyway: the work fold at
 * a read's end (what openSession and the read-end announcement send) then reads no work entry's
 * line again. Noted per entry, not folded: the fold depends on the chain, which the read's end,
 * a leaf change or an append decides. Holds only work entries (a work event's fields, no line),
 * so it grows with them, not with the file.
 */
export class WorkNotes {
  /** Entry index → its event, or null for a malformed work entry (it folds into nothing). */
  private readonly events = new Map<number, WorkEvent | null>();

  /**
   * Notes accepted work entry `i` from its parsed `line`, typed as a view would type it
   * (entry-validate.ts): the fold then sees exactly what reading it again would give.
   */
  add(i: number, line: ValidLine): void {
    const e = typedEntry(line);
    this.events.set(i, e.kind === 'work' ? { ts: e.ts, work: e.work } : null);
  }

  /** Entry `i`'s event: null when noted malformed, undefined when not noted (read before a resume). */
  of(i: number): WorkEvent | null | undefined {
    return this.events.get(i);
  }

  /** Work entries noted. */
  get size(): number {
    return this.events.size;
  }
}
