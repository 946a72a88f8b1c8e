import { startTransition } from 'react';

/**
 * Runs `f` once the current frame is painted: a frame callback runs before the paint, the task it
 * queues after it (a passive effect of a concurrent commit may run before the paint too). Returns
 * the cancel, for an effect's cleanup: it stops whichever of the two is pending.
 */
export function afterFramePainted(f: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(f);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== null) clearTimeout(timer);
  };
}

/** `afterFramePainted`, with the state updates `f` makes as a transition. */
export function afterPaint(f: () => void): () => void {
  return afterFramePainted(() => startTransition(f));
}

/**
 * Runs `f` in the page's next idle period (`requestIdleCallback`: after a frame's paint, when no task
 * waits), or once `capMs` have passed if none came; without idle callbacks (jsdom), in a task of its
 * own. Work that needs the layout then finds it clean: a frame's paint laid it out and nothing came
 * since. Returns the cancel.
 */
export function whenIdle(f: () => void, capMs?: number, win: Window = window): () => void {
  if (typeof win.requestIdleCallback !== 'function') {
    const timer = setTimeout(f, 0);
    return () => clearTimeout(timer);
  }
  const id = win.requestIdleCallback(() => f(), capMs === undefined ? undefined : { timeout: capMs });
  return () => win.cancelIdleCallback(id);
}
