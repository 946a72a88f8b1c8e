/**
 * When a read that follows a first open (its steps, or the rest read at once for a view of the
 * whole file) reads its next chunk. The client asks for what the screen needs right after the
 * open's answer (the first rows, the active leaf's view); reading on beside those calls made each
 * of them wait a chunk at every turn it took. Before each chunk, in this order:
 *
 *   1. calls in flight or waiting to start, other than those waiting for this very reading (a view
 *      of the active leaf, a branch: they need the rest read): wait until none is left, at most
 *      `maxWaitMs` (a long call slows the reading, never stops it);
 *   2. otherwise: one turn of the event loop (I/O and messages come in), then read on.
 */

/** A reading waits this long at most for the calls in flight before each chunk. */
export const READ_WAIT_MAX_MS = 100;

/** Why a chunk was read (tests follow the order through `onTurn`). */
export type TurnReason = 'no-other-calls' | 'waited-too-long';

export class ReadTurns {
  private readonly waiters = new Set<() => void>();

  /**
   * `calls`: the calls running or waiting to start. `onTurn`: told before each chunk read (tests,
   * diagnostics).
   */
  constructor(
    private readonly calls: () => number,
    private readonly maxWaitMs = READ_WAIT_MAX_MS,
    private readonly onTurn?: (reason: TurnReason) => void,
  ) {}

  /** A call ended, or a caller began to wait for a reading: the readings waiting look again. */
  changed(): void {
    const ws = [...this.waiters];
    this.waiters.clear();
    for (const w of ws) w();
  }

  /** Resolves when a chunk may be read; `waiting`: how many of the calls wait for this reading. */
  async turn(waiting: () => number): Promise<void> {
    await new Promise((r) => setImmediate(r));
    const until = performance.now() + this.maxWaitMs;
    for (;;) {
      if (this.calls() <= waiting()) return this.onTurn?.('no-other-calls');
      const left = until - performance.now();
      if (left <= 0) return this.onTurn?.('waited-too-long');
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.waiters.add(done);
      });
    }
  }
}
