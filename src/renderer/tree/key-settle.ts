/**
 * When keyboard travel asks for the panes: where the user pauses. The cursor is drawn at once; the
 * row's entry is selected once the key is let go and no press has followed for PAUSE_MS (a held
 * key's repeats ask for nothing until then). Without a key release to wait for (a command run
 * from the palette, a key whose release went elsewhere), once the cursor has rested SETTLE_MS.
 */
export const SETTLE_MS = 100;
/**
 * Asked on the frame after the release instead, each release of a quick run (j j j j j) whose
 * presses came a frame or more apart (a loaded page, a quick hand) asked for a view the next press
 * cancelled or, answered, drew it; the selection's render delayed that next press.
 */
export const PAUSE_MS = 40;

/** Time as the settler sees it: the browser's, or a test's. A schedule returns its cancel. */
export interface SettleClock {
  after(ms: number, f: () => void): () => void;
}

export const browserClock: SettleClock = {
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
    released: boolean;
    cancel: () => void;
  }
  let pending: Pending | null = null;
  const stop = (): void => {
    pending?.cancel();
    pending = null;
  };
  const run = (p: Pending) => (): void => {
    if (pending !== p) return;
    pending = null;
    p.ask();
  };
  return {
    stop,
    moved(ask) {
      stop();
      const p: Pending = { ask, released: false, cancel: () => {} };
      p.cancel = clock.after(SETTLE_MS, run(p));
      pending = p;
    },
    released() {
      const p = pending;
      if (!p || p.released) return;
      p.released = true;
      p.cancel();
      p.cancel = clock.after(PAUSE_MS, run(p));
    },
  };
}
