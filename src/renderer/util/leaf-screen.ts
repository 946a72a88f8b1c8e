import type { LeafScreen } from '../../shared/api';

/**
 * Estimated height of a history row (rows are measured once drawn): a closed row's, as Chromium
 * draws it (panes.css .history-line), the smallest the History draws. Off by much, a new view's
 * first screen has too few rows and draws again, in the same task, once they are measured.
 */
export const HISTORY_ROW_PX = 22;
/** History rows drawn beyond the screen's edge once a view is painted (its first commit draws fewer). */
export const HISTORY_OVERSCAN = 12;
/**
 * The smallest projected message (panes.css .projected-msg: its head and one line of text), the
 * bound a first answer's count of messages follows: a screen of short ones is the most messages.
 */
export const MESSAGE_MIN_PX = 40;
/** Projected messages drawn beyond the screen's edge once a view is painted. */
export const MESSAGE_OVERSCAN = 6;

/**
 * The screen a leaf view's first answer is for (LeafScreen): every row either pane can show at
 * once in a window `height` px tall (each pane is shorter than the window), at its smallest, and
 * those drawn beyond the edge after the paint: less and the pane asks a page right after it.
 */
export function leafScreen(height: number = globalThis.innerHeight): LeafScreen | undefined {
  if (!(height > 0)) return undefined;
  return {
    chainRows: Math.ceil(height / HISTORY_ROW_PX) + HISTORY_OVERSCAN,
    messages: Math.ceil(height / MESSAGE_MIN_PX) + MESSAGE_OVERSCAN,
  };
}
