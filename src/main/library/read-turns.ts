/**
 * When a session read in steps after its open (open-session.ts `ReadInSteps`) reads its next
 * chunk. The client asks for what the screen needs right after the open's answer (the first rows,
 * a row's place, a leaf's view); reading on beside those calls makes each of them wait a chunk at
 * every turn it takes. Before each chunk, in this order:
 *
 *   1. something waits for this reading (a task queued behind the step in the session's queue: a
 *      view of the active leaf, a branch): read on at once, they need the rest read;
 *   2. calls are in flight or waiting to start: wait until none is, at most `maxWaitMs` (a long
 *      call slows the reading, never stops it);
 *   3. otherwise: one turn of the event loop (I/O and messages come in), then read on.
 */

/** A reading waits this long at most for the calls in flight before each chunk. */
export const READ_WAIT_MAX_MS = 100;

/** Why a chunk was read (tests follow the order through `onTurn`). */
export type TurnReason = 'wanted' | 'no-calls' | 'waited-too-long';

export class ReadTurns {
  private readonly waiters = new Set<() => void>();

  /**
   * `calls`: the calls running or waiting to start, other than those the reading itself serves.
   * `onTurn`: told before each chunk read (tests, diagnostics).
   */
  constructor(
    private readonly calls: () => number,
    private readonly maxWaitMs = READ_WAIT_MAX_MS,
    private readonly onTurn?: (reason: TurnReason) => void,
  ) {}

  /** A call ended, or a task was queued behind a reading: the readings waiting look again. */
  changed(): void {
    const ws = [...this.waiters];
    this.waiters.clear();
    for (const w of ws) w();
  }

  /** Resolves when a chunk may be read; `wanted`: whether something waits for this reading. */
  async turn(wanted: () => boolean): Promise<void> {
    await new Promise((r) => setImmediate(r));
    const until = performance.now() + this.maxWaitMs;
    for (;;) {
      if (wanted()) return this.onTurn?.('wanted');
      if (this.calls() === 0) return this.onTurn?.('no-calls');
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
