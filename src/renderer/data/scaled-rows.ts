import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

/**
 * Tallest scroll content a list makes (px). Browsers stop at a maximum element height
 * (Chromium ~33.5M px, Firefox ~17.9M px: 1.39M rows of 24 px at Chromium's); past this a
 * list scrolls scaled: its content stays this tall and a scrolled pixel moves several.
 */
export const MAX_SCROLL_PX = 8_000_000;

/** Rows of about `estimate` px each make a list taller than a browser lays out: it scrolls scaled. */
export const needsScaling = (count: number, estimate: number, max = MAX_SCROLL_PX): boolean => count * estimate > max;

/**
 * The scaled mapping every long list shares (the tree's fixed rows, the History's and the
 * projected pane's measured ones): a real scroll position in [0, `span`] (content height −
 * viewport) is the fractional row at the viewport's top in [0, `rowsOver`] (the rows less the
 * ones the last screen shows), linearly — so the first row shows at 0 and the last at `span`.
 */
export const rowAtScroll = (top: number, span: number, rowsOver: number): number =>
  span > 0 ? (Math.max(0, Math.min(top, span)) / span) * rowsOver : 0;

/** The inverse of rowAtScroll: the real scroll position that puts fractional row `row` at the top. */
export const scrollAtRow = (row: number, span: number, rowsOver: number): number =>
  rowsOver > 0 ? (Math.max(0, Math.min(row, rowsOver)) / rowsOver) * span : 0;

/** Where the rows of a list sit for one scroll position (pure: the hook below feeds it). */
export interface ScaledLayout {
  /** Height of the scroll content (px), at most MAX_SCROLL_PX. */
  height: number;
  /** Virtual px per scrolled px (1 when the list fits). */
  scale: number;
  /** Rows to draw, overscan included: [first, last]; last < first when there is none. */
  first: number;
  last: number;
  /** Where row `i` is drawn, in the scroll content's coordinates. */
  topOf: (i: number) => number;
}

/**
 * Lays out `count` rows of `rowHeight` px for a viewport of `viewport` px scrolled to
 * `scrollTop`. Scaled scrolling: the virtual offset is scrollTop × scale, linear from the first
 * row to the last, and rows are drawn at their virtual position translated back by what the
 * scroll box did not move — so the first and the last row are both reachable at any count.
 */
export function scaledLayout(
  count: number,
  rowHeight: number,
  viewport: number,
  scrollTop: number,
  overscan: number,
  max = MAX_SCROLL_PX,
): ScaledLayout {
  const total = count * rowHeight;
  const height = Math.min(total, max);
  const scaled = total > max && height > viewport;
  const scale = scaled ? (total - viewport) / (height - viewport) : 1;
  const top = Math.max(0, Math.min(scrollTop, Math.max(0, height - viewport)));
  const virtual = scaled ? rowAtScroll(top, height - viewport, count - viewport / rowHeight) * rowHeight : top;
  const shift = virtual - top;
  const first = Math.max(0, Math.floor(virtual / rowHeight) - overscan);
  const last = Math.min(count - 1, Math.ceil((virtual + viewport) / rowHeight) + overscan);
  return { height, scale, first, last, topOf: (i) => i * rowHeight - shift };
}

/** The scroll position (real px) that shows row `i` as asked; null when `auto` finds it in view already. */
export function scrollTopFor(
  i: number,
  align: 'auto' | 'start' | 'center' | 'end',
  count: number,
  rowHeight: number,
  viewport: number,
  scrollTop: number,
  max = MAX_SCROLL_PX,
): number | null {
  const { scale, height, topOf } = scaledLayout(count, rowHeight, viewport, scrollTop, 0, max);
  // The virtual offset at the top: row 0's distance above the scroll position, as the layout draws it.
  const virtual = scrollTop - topOf(0);
  const rowTop = i * rowHeight;
  let target: number;
  if (align === 'auto') {
    if (rowTop >= virtual && rowTop + rowHeight <= virtual + viewport) return null;
    target = rowTop < virtual ? rowTop : rowTop + rowHeight - viewport;
  } else if (align === 'start') target = rowTop;
  else if (align === 'end') target = rowTop + rowHeight - viewport;
  else target = rowTop + rowHeight / 2 - viewport / 2;
  return scale === 1
    ? Math.max(0, Math.min(Math.max(0, height - viewport), target))
    : scrollAtRow(target / rowHeight, height - viewport, count - viewport / rowHeight);
}

export interface ScaledRows extends ScaledLayout {
  /** Scrolls so that row `i` shows (`auto`: only if it does not already). */
  scrollToIndex: (i: number, align?: 'auto' | 'start' | 'center' | 'end') => void;
  /** The scroll box's height as last measured (px); null before it is. */
  viewport: number | null;
}

/** Where the list's scroll box is: its scroll position and height. */
interface Pos {
  top: number;
  viewport: number;
}

/**
 * Virtual rows of one height in a scroll box, past any browser's element height: the shared
 * helper of the tree (and any list of fixed rows). `initialRow` is shown first (aligned to the end).
 *
 * `viewport`: the box's height as the list's owner expects it (the list before this one, or the
 * tab's last load). Given, the first render draws the rows from it and the mount only sets the
 * scroll position: it reads nothing from the box in the commit that mounts it (a read there lays
 * out the whole new page in the middle of that commit). The box's first resize observation,
 * after the frame's layout, checks it, and the list follows what it finds before the paint.
 */
export function useScaledRows(opts: {
  count: number;
  rowHeight: number;
  scrollRef: RefObject<HTMLElement | null>;
  overscan: number;
  initialRow?: number;
  viewport?: number | null;
  /** A row kept in view when the box's height changes (a panel opened below it), if it was in view. */
  anchorRow?: number | null;
}): ScaledRows {
  const { count, rowHeight, scrollRef, overscan } = opts;
  // Null until the box is measured (in its layout effect, before the first paint), unless its
  // height was given.
  const [pos, setPos] = useState<Pos | null>(() => {
    const v = opts.viewport;
    if (v === undefined || v === null || !(v > 0)) return null;
    const t = opts.initialRow === undefined ? null : scrollTopFor(opts.initialRow, 'end', count, rowHeight, v, 0);
    return { top: t ?? 0, viewport: v };
  });
  // The box's scroll position and height as last read or set. The page's own scroll position
  // moves only in a scroll the list hears of (its event comes before any frame callback), so a
  // scroll to a row computes from this instead of reading the box (a read lays out whatever a
  // commit just changed, and a reveal runs right after one).
  const known = useRef<Pos | null>(pos);
  // The latest count and anchor, for the box's resize observer (set up once, on mount).
  const latest = useRef({ count, anchor: opts.anchorRow ?? null });
  useLayoutEffect(() => {
    latest.current = { count, anchor: opts.anchorRow ?? null };
  });
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const take = (next: Pos): void => {
      known.current = next;
      setPos((p) => (p && p.top === next.top && p.viewport === next.viewport ? p : next));
    };
    const read = (): void => take({ top: el.scrollTop, viewport: el.clientHeight });
    // A scroll moves the position only: the box's height is the observer's to report. A scroll
    // event that came between a change of height and its observation (a position set a frame
    // before) would otherwise take the new height first, and the anchor check below would see
    // no change and leave the cursor's row hidden under the panel.
    const scrolled = (): void => take({ top: el.scrollTop, viewport: known.current?.viewport ?? el.clientHeight });
    // The box changed height: the anchor, if the box showed it whole, is scrolled back into view
    // (a panel opened below the list, or a reload's panel drawn after the list, hides the cursor's
    // row otherwise). A row the user had scrolled away from stays away.
    const keepAnchor = (): void => {
      const { anchor, count: n } = latest.current;
      const was = known.current;
      const v = el.clientHeight;
      if (anchor === null || !was || v === was.viewport) return;
      if (scrollTopFor(anchor, 'auto', n, rowHeight, was.viewport, was.top) !== null) return;
      const t = scrollTopFor(anchor, 'auto', n, rowHeight, v, was.top);
      if (t !== null) el.scrollTop = t;
    };
    const given = known.current;
    let checked = given === null;
    if (given) {
      if (given.top > 0) el.scrollTop = given.top;
    } else {
      if (opts.initialRow !== undefined) {
        const t = scrollTopFor(opts.initialRow, 'end', count, rowHeight, el.clientHeight, 0);
        if (t !== null) el.scrollTop = t;
      }
      read();
    }
    el.addEventListener('scroll', scrolled, { passive: true });
    const ro =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            if (checked) {
              keepAnchor();
              return read();
            }
            checked = true;
            // The first observation (after the frame's layout, before its paint): the height
            // given was a guess. Another one, or a position the box could not take when it was
            // set (the box was taller then, its panel below drawn after the list: the position
            // was cut short), draws the list anew for the box as it is, before the paint.
            const v = el.clientHeight;
            if (given && (v !== given.viewport || el.scrollTop !== given.top) && opts.initialRow !== undefined) {
              const t = scrollTopFor(opts.initialRow, 'end', count, rowHeight, v, 0);
              if (t !== null) el.scrollTop = t;
            }
            flushSync(read);
          });
    ro?.observe(el);
    return () => {
      el.removeEventListener('scroll', scrolled);
      ro?.disconnect();
    };
    // Only on mount: a list for another source is another component (keyed by it).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scrollRef]);
  const layout = scaledLayout(count, rowHeight, pos?.viewport ?? 0, pos?.top ?? 0, overscan);
  const scrollToIndex = useCallback(
    (i: number, align: 'auto' | 'start' | 'center' | 'end' = 'auto') => {
      const el = scrollRef.current;
      if (!el) return;
      const at = known.current ?? { top: el.scrollTop, viewport: el.clientHeight };
      const t = scrollTopFor(i, align, count, rowHeight, at.viewport, at.top);
      if (t === null) return;
      el.scrollTop = t;
      // A browser fires scroll on its own (and may round the position: its event reads it
      // back); set the state now too (jsdom does not fire it, and the rows must follow).
      known.current = { top: t, viewport: at.viewport };
      setPos(known.current);
    },
    [scrollRef, count, rowHeight],
  );
  // No rows before it is measured: the rows at the top, drawn (and fetched) for a list about to
  // open on `initialRow`, would be asked for nothing.
  const viewport = pos?.viewport ?? null;
  return pos ? { ...layout, scrollToIndex, viewport } : { ...layout, first: 0, last: -1, scrollToIndex, viewport };
}
