import { measureElement as measureRow, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import {
  startTransition,
  useCallback,
  useEffect,
  useLayoutEffect,
  useReducer,
  useRef,
  useState,
  type CSSProperties,
  type Key,
  type ReactNode,
  type RefObject,
} from 'react';
import { type Align, useScaledList } from '../data/scaled-list';
import { needsScaling } from '../data/scaled-rows';
import { afterPaint } from '../util/after-paint';

type VirtualizerOptions = Parameters<typeof useVirtualizer<HTMLDivElement, Element>>[0];

/** A list's scroll box size, as the virtualizer last saw it. */
export interface PaneRect {
  width: number;
  height: number;
}

interface PaneRowsOptions extends VirtualizerOptions {
  /**
   * Kept by the pane across its lists (one per view): the box's last size. A new list starts
   * from it, so its first render has its rows; without it the first render has none and the
   * rows come in a second, synchronous render once the box is measured (a longer task).
   */
  rect?: RefObject<PaneRect | null>;
  /**
   * Rows drawn beyond the edge in a new list's first commit (then `overscan`, in a later task).
   * A new view's first commit is the task a click waits on: its cost follows the rows it mounts
   * and lays out, so it draws what is on screen and little more; the margin for scrolling comes
   * after the paint.
   */
  firstOverscan?: number;
  /**
   * Kept by the pane across its lists, like `rect`: the mean height of the rows measured last.
   * A new list estimates its rows at it (else at `estimateSize`), so its first commit draws the
   * rows that fill the screen: at a fixed guess far below the real heights it drew several
   * screens of messages, laid out and measured in the task a click waits on.
   */
  learned?: RefObject<number | null>;
  /** Opens at the end (the leaf's): `initialOffset` is the whole estimated list below `scrollMargin`. */
  openAtEnd?: boolean;
}

/** One drawn row of a pane's list. */
export interface PaneRow {
  index: number;
  key: Key;
}

interface RowProps {
  'data-index'?: number;
  ref?: (el: Element | null) => void;
  style?: CSSProperties;
}

/** The History's and the projected pane's rows: virtualized as before, or scaled past the element height. */
export interface PaneRows {
  scaled: boolean;
  items: PaneRow[];
  /** Is row `i` on screen now? */
  inView: (i: number) => boolean;
  scrollToIndex: (i: number, align: Align) => void;
  /** A loaded row: measured once drawn. */
  row: (it: PaneRow) => RowProps;
  /** A row still being fetched: the estimated height. */
  placeholder: (it: PaneRow) => RowProps;
  /** The scroll box's props: a scaled list's is positioned (its box is measured from it) and says it is scaled. */
  scrollProps: { style?: CSSProperties; 'data-scaled'?: boolean };
  boxStyle: CSSProperties;
  /** Below the limit: the virtualizer's own ref to the box (it writes the box's height). */
  virtualBoxRef?: (el: HTMLElement | null) => void;
}

/**
 * A scaled list's scroll box: positioned (its box's offsetTop is the content above the list) and
 * without the browser's scroll anchoring (the list anchors its rows itself: the browser's would
 * move the scroll position when the list moves its window).
 */
const SCALED_SCROLL = { style: { position: 'relative', overflowAnchor: 'none' }, 'data-scaled': true } as const;
/** The window of a scaled list: rows in flow, placed by scaled-scroller.ts (`top`). */
const WINDOW_STYLE: CSSProperties = { position: 'absolute', left: 0, right: 0 };
/**
 * Past this many rows a pane's list is the scaled list even where it would fit the browser (at
 * scale 1): its cost follows the rows on screen. @tanstack/react-virtual's follows the
 * count, twice over: a new list lays out every row's estimate, and each measured row copies the
 * list of keys (work in proportion to the rows, several times per new view). A click makes a new
 * list in each pane, so a few thousand rows already show in the task it waits on.
 */
export const ANCHORED_FROM_ROWS = 2_000;
/** A virtualized row (below the limit): its `top` is written by the virtualizer. */
const ROW_STYLE: CSSProperties = { position: 'absolute', left: 0, right: 0 };
/** The rows' box below the limit: its `height` is written by the virtualizer. */
const BOX_STYLE: CSSProperties = { position: 'relative' };

/**
 * A pane's list rows. Up to ANCHORED_FROM_ROWS rows and MAX_SCROLL_PX of estimated rows:
 * @tanstack/react-virtual with `options`. Past either (Chromium stops laying out at ~33.5M px; a
 * chain of ~364k entries, a projection of ~83k messages): a scaled list (data/scaled-list.ts)
 * opening at the end, as `initialOffset` does below the limit. Drawn by PaneRowsBox with the same
 * refs: `boxRef` the rows' box (sized by the list), `windowRef` a scaled list's window in it.
 */
export function usePaneRows(
  { rect, firstOverscan, learned, openAtEnd, ...given }: PaneRowsOptions,
  boxRef: RefObject<HTMLDivElement | null>,
  windowRef: RefObject<HTMLDivElement | null>,
): PaneRows {
  // One estimate for the list's life (a row's estimate must not change under it).
  const [estimate] = useState(() => learnedEstimate(learned?.current, given.estimateSize(0)));
  const options: VirtualizerOptions = {
    ...given,
    estimateSize: () => estimate,
    ...(openAtEnd ? { initialOffset: () => (given.scrollMargin ?? 0) + given.count * estimate } : {}),
  };
  const scaled = needsScaling(options.count, estimate) || options.count > ANCHORED_FROM_ROWS;
  const batch = useRowBatch(learned);
  const overscan = useSettledOverscan(options.overscan, firstOverscan);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler in this build; the virtualizer re-renders on its own
  const virt = useVirtualizer({
    ...options,
    overscan,
    enabled: !scaled,
    // The virtualizer places the rows and sizes the box itself (`top`, `height`), and re-renders
    // only when the rows in range change: a measured row moving the rows below it is no React
    // render (each was one more render and commit of the whole list in the same task).
    // `top`, as the rows always had it: a `transform` (its other mode) measured no better in
    // `npm run bench -- ui` and makes every row a layer of its own.
    directDomUpdates: true,
    directDomUpdatesMode: 'position',
    // Its own re-renders (rows coming into range as it scrolls or measures) are scheduled, never
    // flushed inside the scroll or resize callback: one flushed render drew, measured and parsed a
    // screen of messages in one task of ~170 ms on the 1M-entry session.
    useFlushSync: false,
    ...(rect?.current ? { initialRect: rect.current } : {}),
    observeElementRect: observeRectKnown(rect),
    measureElement: batch.measure,
    onChange: (v, sync) => {
      if (rect && v.scrollRect) rect.current = v.scrollRect;
      options.onChange?.(v, sync);
    },
  });
  batch.virt.current = virt;
  const list = useScaledList({
    enabled: scaled,
    count: options.count,
    estimate,
    overscanPx: (overscan ?? 1) * estimate,
    getScrollElement: options.getScrollElement,
    boxRef,
    windowRef,
    ...(rect ? { rect } : {}),
    ...(learned ? { learned } : {}),
  });
  // Both stay the same functions from render to render (effects that scroll depend on them).
  const { inView: scaledInView, scrollToIndex: scaledScrollTo } = list;
  const inView = useCallback(
    (i: number) => {
      if (scaled) return scaledInView(i);
      const r = virt.range;
      return !!r && i >= r.startIndex && i <= r.endIndex;
    },
    [scaled, scaledInView, virt],
  );
  const scrollToIndex = useCallback(
    (i: number, align: Align) => (scaled ? scaledScrollTo(i, align) : virt.scrollToIndex(i, { align })),
    [scaled, scaledScrollTo, virt],
  );
  if (scaled) {
    const items: PaneRow[] = [];
    for (let i = list.first; i <= list.last; i++) items.push({ index: i, key: i });
    return {
      scaled,
      items,
      inView,
      scrollToIndex,
      row: (it) => ({ 'data-index': it.index }),
      placeholder: (it) => ({ 'data-index': it.index, style: { height: estimate } }),
      scrollProps: SCALED_SCROLL,
      boxStyle: { height: list.height, position: 'relative', overflow: 'clip' },
    };
  }
  // `top` is the virtualizer's own (directDomUpdates): written before the first paint, in the
  // commit that mounts the row, and whenever rows above it are measured.
  return {
    scaled,
    items: virt.getVirtualItems(),
    inView,
    scrollToIndex,
    row: (it) => ({ 'data-index': it.index, ref: batch.ref, style: ROW_STYLE }),
    // Placed the same way (a placeholder among measured rows moves with them): measured at its height.
    placeholder: (it) => ({
      'data-index': it.index,
      ref: batch.ref,
      style: { ...ROW_STYLE, height: estimate },
    }),
    scrollProps: {},
    boxStyle: BOX_STYLE,
    virtualBoxRef: virt.containerRef,
  };
}

/**
 * The virtualizer's watch on its scroll box's size, starting from the size the pane kept (when it
 * has one) instead of reading it. Its own reads the box's `clientWidth` as it attaches, in the
 * layout effect after the rows were measured and moved: a second layout of the new view in the
 * task a click waits on. The ResizeObserver reports the box's real size after the frame's layout
 * (read then, it costs no layout) and corrects a size that changed between two views.
 */
function observeRectKnown(rect: RefObject<PaneRect | null> | undefined): VirtualizerOptions['observeElementRect'] {
  return (instance, cb) => {
    const el = instance.scrollElement;
    const win = instance.targetWindow;
    if (!el || !win) return;
    const read = () => cb({ width: Math.round(el.clientWidth), height: Math.round(el.clientHeight) });
    const known = rect?.current;
    if (known) cb(known);
    else read();
    if (!win.ResizeObserver) return () => undefined;
    const observer = new win.ResizeObserver(read);
    observer.observe(el, { box: 'content-box' });
    return () => observer.disconnect();
  };
}

/**
 * `first` until the list's first commit is painted, then `full`: the wider margin is drawn by a
 * transition of its own (its rows measured in their own batch), never in the commit that shows a
 * new view.
 */
function useSettledOverscan(full: number | undefined, first: number | undefined): number | undefined {
  const [settled, setSettled] = useState(first === undefined);
  useEffect(() => {
    if (settled) return;
    return afterPaint(() => setSettled(true));
  }, [settled]);
  return settled ? full : first;
}

/** What the virtualizer keeps private and its own ResizeObserver callback uses to measure a batch of rows. */
interface BatchInternals {
  _resizeBatch: { sync: boolean; notify?: boolean } | null;
  notify(sync: boolean): void;
  _noteClampMax(): void;
  _flushHoldIfReady(sync: boolean): void;
  _retryClampedAdjustment(): void;
  scrollState: unknown;
  shouldMeasureDuringScroll(index: number): boolean;
}

/**
 * The rows a commit mounts, measured together. The virtualizer measures a row as its ref is
 * attached and moves the rows below it at once (their `top`, the box's height): the next row's
 * read then lays the list out again, once per row of a new view's first screen. Here the refs
 * only collect the rows; a layout effect (declared before the virtualizer's own, so it runs where
 * the refs did: before them) reads every height first, in one layout; registers the rows at the
 * size the virtualizer has for them (it writes each one's `top` as it registers it: no read
 * between); then hands it the heights as one batch with one notify, as its ResizeObserver
 * callback does (where a size moves the scroll position it reads the box's, laid out once).
 */
/** A learned mean, bounded near the pane's own guess (one odd screen must not make the next list absurd). */
export function learnedEstimate(mean: number | null | undefined, guess: number): number {
  if (mean == null || !(mean > 0)) return guess;
  return Math.round(Math.min(guess * 8, Math.max(guess / 4, mean)));
}

function useRowBatch(learnedRef?: RefObject<number | null>) {
  const virt = useRef<Virtualizer<HTMLDivElement, Element> | null>(null);
  const pending = useRef<Element[]>([]);
  const sizes = useRef(new Map<Element, number>());
  const registering = useRef(false);
  const ref = useCallback((el: Element | null) => {
    if (el) pending.current.push(el);
    // Detached rows are dropped from the virtualizer's cache as before.
    else virt.current?.measureElement(null);
  }, []);
  const measure = useCallback(
    (el: Element, entry: ResizeObserverEntry | undefined, v: Virtualizer<HTMLDivElement, Element>) =>
      (registering.current ? v.measurementsCache[v.indexFromElement(el)]?.size : undefined) ?? measureRow(el, entry, v),
    [],
  );
  useLayoutEffect(() => {
    const v = virt.current;
    const rows = pending.current;
    if (!v || rows.length === 0) return;
    pending.current = [];
    // Reads first: one layout for the whole commit (a row measured before keeps its size, as it
    // would in the virtualizer's own measure).
    for (const el of rows) {
      if (el.isConnected && !v.itemSizeCache.has(v.options.getItemKey(v.indexFromElement(el))))
        sizes.current.set(el, (el as HTMLElement).offsetHeight);
    }
    if (learnedRef && sizes.current.size > 0) {
      let sum = 0;
      for (const h of sizes.current.values()) sum += h;
      learnedRef.current = sum / sizes.current.size;
    }
    registering.current = true;
    try {
      for (const el of rows) v.measureElement(el);
    } finally {
      registering.current = false;
    }
    const inner = v as unknown as BatchInternals;
    // Once a resize has moved the scroll position, the virtualizer recomputes every row's start
    // before each next resize of the batch (`sync`), copying the list of keys each time: work in
    // proportion to the rows, once per row of the new view. The rows are resized from the last
    // up instead: a row's size moves only the rows below it, so each one's start as computed
    // before the batch is still its start, and the batch reports `sync` once, at its end.
    let sync = false;
    const b = {
      get sync() {
        return false;
      },
      set sync(moved: boolean) {
        sync ||= moved;
      },
      notify: false,
    };
    inner._resizeBatch = b;
    try {
      const measured = [...sizes.current].map(([el, size]) => [v.indexFromElement(el), size] as const);
      measured.sort((x, y) => y[0] - x[0]);
      // As the virtualizer's own measure of a row decides: not during a smooth scroll's far rows.
      for (const [i, size] of measured) {
        if ((!v.isScrolling || inner.scrollState) && inner.shouldMeasureDuringScroll(i)) v.resizeItem(i, size);
      }
    } finally {
      inner._resizeBatch = null;
      sizes.current.clear();
      if (b.notify) {
        inner.notify(sync);
        inner._noteClampMax();
        inner._flushHoldIfReady(true);
        inner._retryClampedAdjustment();
      }
    }
  });
  return { virt, ref, measure };
}

/** The rows' box: sized by the list; a scaled list's rows sit in its window. */
export function PaneRowsBox(props: {
  rows: PaneRows;
  boxRef: RefObject<HTMLDivElement | null>;
  windowRef: RefObject<HTMLDivElement | null>;
  children: ReactNode;
}): ReactNode {
  const { rows, boxRef, windowRef } = props;
  const virtBoxRef = rows.virtualBoxRef;
  // One function while the list's mode stays (a new ref function is detached and attached again each render).
  const ref = useCallback(
    (el: HTMLDivElement | null) => {
      boxRef.current = el;
      virtBoxRef?.(el);
    },
    [boxRef, virtBoxRef],
  );
  return (
    <div ref={ref} style={rows.boxStyle}>
      {rows.scaled ? (
        <div ref={windowRef} style={WINDOW_STYLE}>
          {props.children}
        </div>
      ) : (
        props.children
      )}
    </div>
  );
}

/**
 * Draws a pane's list again when its source gets a page, as a transition: in slices that yield to
 * the browser (a page drawn at once was a task over 50 ms). The source only grows: a
 * slice that reads a newer page than the one before it draws a row instead of its placeholder.
 */
export function useRedrawOnPages(source: { subscribe(fn: () => void): () => void }): void {
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  useEffect(() => source.subscribe(() => startTransition(redraw)), [source]);
}
