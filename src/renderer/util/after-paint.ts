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
