import { checkCancelled, type CancelSignal } from '../core/cancel';

/** Work between two pauses of `runInSteps` (a step ends after the piece that passes it). */
export const STEP_MS = 12;

/**
 * Runs work that pauses (a generator yielding between its pieces) in steps of ~STEP_MS, other
 * requests answered between them, stopped when `signal` aborts. One request then holds the
 * worker for a step, never for the whole of an export of a long session.
 */
export async function runInSteps<T>(steps: Generator<void, T>, signal?: CancelSignal, stepMs = STEP_MS): Promise<T> {
  let since = performance.now();
  for (;;) {
    checkCancelled(signal);
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - since >= stepMs) {
      await new Promise((turn) => setImmediate(turn));
      since = performance.now();
    }
  }
}
