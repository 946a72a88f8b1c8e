/**
 * How far a context series' build has come, told to the client that asked while the build lasts
 * long enough to be seen: the first word once it has run PROGRESS_FIRST_MS, then at most one every
 * PROGRESS_EVERY_MS. A chain of a few hundred turns is built before the first word; a big session's
 * (seconds) gets a bar that moves instead of an empty chart.
 */
import type { Ledger } from '../core/ledger';
import { isDirective } from '../core/turn-index';

export const PROGRESS_FIRST_MS = 300;
export const PROGRESS_EVERY_MS = 250;

/** What a series' build says of its progress (context-series.ts). */
export interface BuildProgress {
  /** About how many steps the build takes from now. */
  expect(total: number): void;
  /** One more step done. */
  step(): void;
}

/** The turns of a chain: its directives (user messages that are not control nudges, LEDGER.md §4). */
export function directivesOn(ledger: Ledger, chain: Int32Array): number {
  let n = 0;
  for (let k = 0; k < chain.length; k++) if (isDirective(ledger.index, chain[k])) n++;
  return n;
}

/** The steps of `steps`, each told to `progress` once done (none told without one). */
export function* toldSteps<T>(steps: Generator<void, T>, progress: BuildProgress | undefined): Generator<void, T> {
  if (!progress) return yield* steps;
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    progress.step();
    yield;
  }
}

/**
 * Progress sent as `send(done, total)`, no sooner than `firstMs` after it was made and then no more
 * often than every `everyMs`. The total is an estimate: `done` is kept below it, so a bar never
 * shows a build as finished before its answer.
 */
export class ThrottledProgress implements BuildProgress {
  private total = 1;
  private done = 0;
  private next: number;

  constructor(
    private readonly send: (done: number, total: number) => void,
    private readonly now: () => number = () => performance.now(),
    firstMs = PROGRESS_FIRST_MS,
    private readonly everyMs = PROGRESS_EVERY_MS,
  ) {
    this.next = now() + firstMs;
  }

  expect(total: number): void {
    this.total = Math.max(1, this.done + total);
  }

  step(): void {
    this.done++;
    const t = this.now();
    if (t < this.next) return;
    this.next = t + this.everyMs;
    if (this.done >= this.total) this.total = this.done + 1;
    this.send(this.done, this.total);
  }
}
