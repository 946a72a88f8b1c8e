/**
 * Cancellation of long core work (a projection superseded by a newer selection). The core
 * only reads `aborted` between steps: an AbortSignal is one, and so is the worker's view of a
 * flag the main thread sets in shared memory (seen at once, without yielding the thread).
 */
export interface CancelSignal {
  readonly aborted: boolean;
}

/** Thrown by core work that saw its CancelSignal aborted. */
export class WorkCancelled extends Error {
  constructor() {
    super('cancelled: a newer request superseded it');
    this.name = 'WorkCancelled';
  }
}

/** Throws WorkCancelled when `signal` is aborted. */
export function checkCancelled(signal: CancelSignal | undefined): void {
  if (signal?.aborted) throw new WorkCancelled();
}

/** Work that pauses (a generator yielding between its steps: see api/in-steps.ts), run to its end at once. */
export function atOnce<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
