/**
 * When keyboard travel asks for the panes: where the user pauses. The cursor is drawn at once; the
 * row's entry is selected the frame after the key is let go (a held key's repeats ask for nothing
 * until then), unless another press comes first. Without a key release to wait for (a command run
 * from the palette, a key whose release went elsewhere), once the cursor has rested SETTLE_MS.
 */
export const SETTLE_MS = 100;
/**
 * A press this soon after the last release (ms) is one of a run (j j j j j): its release asks once
 * no press has followed it for RUN_PAUSE_MS. On the next frame, each release of a run whose presses
 * come a frame or more apart (a loaded machine, a quick hand) asked for a view the next press
 * cancelled, and the selection's render delayed that next press.
 */
export const RUN_GAP_MS = 150;
export const RUN_PAUSE_MS = 40;

/** Time as the settler sees it: the browser's, or a test's. Each schedule returns its cancel. */
export interface SettleClock {
  now(): number;
  frame(f: () => void): () => void;
  after(ms: number, f: () => void): () => void;
}

export const browserClock: SettleClock = {
  now: () => performance.now(),
  frame: (f) => {
    const id = requestAnimationFrame(f);
    return () => cancelAnimationFrame(id);
  },
  after: (ms, f) => {
    const id = setTimeout(f, ms);
    return () => clearTimeout(id);
  },
};

export interface KeySettler {
  /** The cursor moved: `ask` runs once the keys rest (a newer move or `stop` drops it). */
  moved(ask: () => void): void;
  /** A key was let go. */
  released(): void;
  /** Drops the pending ask (a click selected a row, a jump). */
  stop(): void;
}

export function keySettler(clock: SettleClock = browserClock): KeySettler {
  interface Pending {
    ask: () => void;
    inRun: boolean;
    scheduled: boolean;
    cancel: () => void;
  }
  let lastRelease = -Infinity;
  let pending: Pending | null = null;
  const stop = (): void => {
    pending?.cancel();
    pending = null;
  };
  // Whichever of its schedules comes first asks, once, and drops the others.
  const run = (p: Pending) => (): void => {
    if (pending !== p) return;
    stop();
    p.ask();
  };
  return {
    stop,
    moved(ask) {
      stop();
      const p: Pending = { ask, inRun: clock.now() - lastRelease < RUN_GAP_MS, scheduled: false, cancel: () => {} };
      p.cancel = clock.after(SETTLE_MS, run(p));
      pending = p;
    },
    released() {
      lastRelease = clock.now();
      const p = pending;
      if (!p || p.scheduled) return;
      p.scheduled = true;
      if (p.inRun) {
        p.cancel();
        p.cancel = clock.after(RUN_PAUSE_MS, run(p));
      } else {
        // The rest timer stays: a hidden page draws no frame.
        const rest = p.cancel;
        const frame = clock.frame(run(p));
        p.cancel = () => {
          rest();
          frame();
        };
      }
    },
  };
}
