/**
 * Whether the backend's calls have paused. Background work that may wait (the check of a kept
 * index: the whole file read again) starts in a lull instead of beside the calls a client makes
 * right after an open's answer — a reopen's first rows and its active leaf's view — which it
 * would otherwise share the thread with, step for step.
 */
export class CallLull {
  private count = 0;
  private lastEnd = -Infinity;

  begin(): void {
    this.count++;
  }

  end(): void {
    this.count = Math.max(0, this.count - 1);
    this.lastEnd = performance.now();
  }

  /** Calls running now. */
  get running(): number {
    return this.count;
  }

  /** True when no call runs and none ended in the last `quietMs`. */
  quiet(quietMs: number): boolean {
    return this.count === 0 && performance.now() - this.lastEnd >= quietMs;
  }

  /**
   * Resolves once no call has run for `quietMs`, or after `maxMs` whatever runs: a client that
   * never stops asking delays the work, never stops it.
   */
  wait(quietMs: number, maxMs: number): Promise<void> {
    const until = performance.now() + maxMs;
    return new Promise((resolve) => {
      const look = (): void => {
        const now = performance.now();
        const quietFor = this.count > 0 ? 0 : now - this.lastEnd;
        if (quietFor >= quietMs || now >= until) return resolve();
        // (Unreferenced: a lull awaited never keeps the process alive.)
        setTimeout(look, Math.min(quietMs - quietFor, until - now)).unref();
      };
      look();
    });
  }
}
