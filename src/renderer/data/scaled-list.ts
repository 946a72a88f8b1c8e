import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Align } from './anchored-rows';
import { MAX_SCROLL_PX } from './scaled-rows';
import { AnchoredRows } from './anchored-rows';
import { NONE, ScaledScroller } from './scaled-scroller';

/**
 * Lists of measured rows past a browser's element height: the History (every entry of a chain)
 * and the projected pane (every message of a projection), when rows × their estimated height
 * passes MAX_SCROLL_PX (~364k History rows, ~83k messages), or past ANCHORED_FROM_ROWS rows
 * (leaf/pane-rows.tsx: at scale 1, its cost follows the screen; below, @tanstack/react-virtual).
 *
 * Why this technique (docs/spec-decisions.md, "Lists past the browser's element height"):
 * - The scroll content stays MAX_SCROLL_PX tall and the scrollbar is scaled, as the tree's
 *   (scaled-rows.ts, the same mapping): the thumb's place is the place in the whole list, so a
 *   drag reaches the first, the middle and the last row at any length. Windowed offsets (a
 *   window re-based near the content's ends) would leave the thumb saying "middle" forever.
 * - Rows are not of one height and most were never measured, so nothing is laid out by a total
 *   of heights: the list holds an anchor, one row and where its top sits in the viewport. Rows
 *   are drawn in normal flow around it (a window, placed so that the anchor row lands where it
 *   should), so a height measured late moves only the rows below it, never the one the user
 *   looks at: no jitter, and no blank frame while heights arrive.
 * - A scrolled pixel of a scaled thumb is several rows; a wheel, the keys, a focus scroll and
 *   a scroll to a row therefore move the anchor by real pixels (the scroll position then
 *   follows the anchor), and only the scrollbar's own drag (or a jump too long for anything
 *   else, or either end of the scroll box) maps the scroll position to a row. Every row is reachable by the wheel, one line at a
 *   time, and by the thumb, at the thumb's resolution.
 */

export type { Align } from './anchored-rows';

export interface ScaledList {
  /** Rows drawn, overscan included: [first, last]; last < first when there is none. */
  first: number;
  last: number;
  /** Height of the list's box (px), at most MAX_SCROLL_PX. */
  height: number;
  /** Is row `i` on screen now? */
  inView: (i: number) => boolean;
  /** Brings row `i` into view as `align` says (`auto`: only if it is not). */
  scrollToIndex: (i: number, align?: Align) => void;
}

/**
 * A scaled list of measured rows in the scroll box `getScrollElement()`: its box (`boxRef`, of
 * `height` px, positioned) holds a window (`windowRef`, absolutely positioned) whose children
 * are rows first … last in flow, each with `data-index`. Opens at the end (the leaf end).
 * `enabled` false: nothing is attached (the list is not scaled).
 */
export function useScaledList(opts: {
  enabled: boolean;
  count: number;
  estimate: number;
  overscanPx: number;
  getScrollElement: () => HTMLElement | null;
  boxRef: { readonly current: HTMLElement | null };
  windowRef: { readonly current: HTMLElement | null };
  /**
   * The scroll box's size as the list before this one last saw it (kept by the pane across its
   * lists). A new list draws its first screen at the end in its first render, from this height
   * and the estimate: without it the first commit draws no row, and the rows come in a second,
   * synchronous render and commit, laid out again, in the task a click waits on.
   */
  rect?: { current: { width: number; height: number } | null };
  /**
   * Kept by the pane across its lists: the mean height of the rows measured last. A new list is
   * estimated at it (pane-rows.tsx): at a guess far from the real heights its first screen has
   * too few rows, and the rest come in a second render and layout in the same task.
   */
  learned?: { current: number | null };
}): ScaledList {
  const { enabled, count, estimate, overscanPx, getScrollElement, boxRef, windowRef, rect: rectRef, learned } = opts;
  // eslint-disable-next-line react-hooks/refs -- read once, in the list's first render: what the list before it left
  const [drawn, setDrawn] = useState<readonly [number, number]>(() =>
    enabled && rectRef?.current ? firstScreen(count, estimate, rectRef.current.height) : NONE,
  );
  const ctl = useRef<ScaledScroller | null>(null);
  const countRef = useRef(count);
  useLayoutEffect(() => {
    countRef.current = count;
    ctl.current?.setCount(count);
  }, [count]);
  useLayoutEffect(() => {
    const el = getScrollElement();
    if (!enabled || !el) return;
    const c = new ScaledScroller(
      {
        el,
        box: () => boxRef.current,
        win: () => windowRef.current,
        overscanPx,
        draw: (range, now) => (now ? flushSync(() => setDrawn(range)) : setDrawn(range)),
        ...(learned ? { measuredMean: (px: number) => void (learned.current = px) } : {}),
      },
      countRef.current,
      estimate,
    );
    // Read where the constructor laid the box out already: no layout of its own.
    if (rectRef) rectRef.current = { width: el.clientWidth, height: c.model.viewport };
    ctl.current = c;
    c.model.toEnd();
    const detach = c.attach();
    // The rows of the first render (the screen at the end, or none) are measured and placed by
    // the effect below, in this commit: more are drawn only where their real heights leave a gap.
    return () => {
      detach();
      if (rectRef?.current) rectRef.current = { width: rectRef.current.width, height: c.model.viewport };
      ctl.current = null;
      setDrawn(NONE);
    };
    // Once per list: a list for another source is another component (keyed by it).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled]);
  // After every render: the rows drawn are measured and the window placed before the frame paints.
  useLayoutEffect(() => ctl.current?.rendered(drawn));
  const inView = useCallback((i: number) => ctl.current?.inView(i) ?? false, []);
  const scrollToIndex = useCallback((i: number, align: Align = 'auto') => ctl.current?.scrollToIndex(i, align), []);
  return {
    first: enabled ? drawn[0] : 0,
    last: enabled ? drawn[1] : -1,
    height: Math.min(count * estimate, MAX_SCROLL_PX),
    inView,
    scrollToIndex,
  };
}

/** The rows a list opening at the end shows in a viewport of `height` px at the estimate (no margin beyond). */
export function firstScreen(count: number, estimate: number, height: number): readonly [number, number] {
  const m = new AnchoredRows(count, estimate, height);
  m.toEnd();
  return m.drawRange(0);
}
