import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { MAX_SCROLL_PX, rowAtScroll, scrollAtRow } from './scaled-rows';

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

export type Align = 'auto' | 'start' | 'center' | 'end';

/** Most rows one window draws, whatever the heights say (a guard against rows measured at 0). */
const MAX_DRAWN = 400;
/** Measured heights kept (the most recently measured first): enough for a long read, bounded. */
const MAX_HEIGHTS = 50_000;
/** A wheel line (deltaMode 1) and an arrow key, in px (what Chromium scrolls for one). */
const LINE_PX = 40;
/** A page key scrolls this much of the viewport (Chromium's own step). */
const PAGE_FRACTION = 0.875;

/**
 * The pure model of a scaled list of measured rows: an anchor row and where it sits, the
 * heights measured so far (the estimate for the rest), and the mapping to a real scroll
 * position. Viewport coordinates: 0 is the scroll box's top edge.
 */
export class AnchoredRows {
  /** Row `a`'s top sits `o` px below the viewport's top (negative: above it). */
  a = 0;
  o = 0;
  /** Height of the content above the list in the same scroll box (the projected pane's system prompt). */
  margin = 0;
  private readonly heights = new Map<number, number>();
  /** The last scroll to a row, until the user scrolls: aligned again once the row's height is known. */
  private aligned: { i: number; align: Exclude<Align, 'auto'>; h: number } | null = null;

  constructor(
    public count: number,
    readonly estimate: number,
    public viewport: number,
    private readonly max = MAX_SCROLL_PX,
  ) {}

  /** A row's height: measured, or the estimate. */
  h(i: number): number {
    return this.heights.get(i) ?? this.estimate;
  }

  /** Records a drawn row's height (0, as jsdom measures, is no measurement). */
  measured(i: number, px: number): void {
    if (!(px > 0)) return;
    this.heights.delete(i);
    this.heights.set(i, px);
    if (this.heights.size > MAX_HEIGHTS) this.heights.delete(this.heights.keys().next().value as number);
  }

  /** Height of the list's box in the scroll content: bounded, whatever the count. */
  get height(): number {
    return Math.min(this.count * this.estimate, this.max);
  }

  /** The real scroll range of the list part (its box less the viewport). */
  private get span(): number {
    return Math.max(0, this.height - this.viewport);
  }

  /** Fractional rows the span covers: the top row at the end, by the estimate (as the tree's). */
  private get rowsOver(): number {
    return Math.max(0, this.count - this.viewport / this.estimate);
  }

  /** The largest real scroll position. */
  get maxScroll(): number {
    return this.margin + this.span;
  }

  /** The anchor moved to the row at the viewport's top (or row 0 while the header shows), unchanged on screen. */
  private normalized(): { a: number; o: number } {
    let { a, o } = this;
    while (a < this.count - 1 && o + this.h(a) <= 0) o += this.h(a++);
    while (a > 0 && o > 0) o -= this.h(--a);
    return { a, o };
  }

  /**
   * Keeps the ends where they can be: the last row's bottom no higher than the viewport's bottom,
   * row 0 no lower than the end of the content above it (the top wins when all fits). Again
   * after rows are measured: an end drawn at estimated heights may leave a gap once measured.
   */
  clamp(): void {
    if (this.count === 0) return;
    let y = this.o;
    let i = this.a;
    while (i < this.count && y < this.viewport) y += this.h(i++);
    if (i === this.count && y < this.viewport) this.o += this.viewport - y;
    let top = this.o;
    let j = this.a;
    while (j > 0 && top > this.margin) top -= this.h(--j);
    if (j === 0 && top > this.margin) this.o -= top - this.margin;
  }

  /** Does the last row's bottom sit at the viewport's bottom (the list's end is in view)? */
  atEnd(): boolean {
    let y = this.o;
    let i = this.a;
    while (i < this.count && y < this.viewport + 1) y += this.h(i++);
    return i === this.count && Math.abs(y - this.viewport) < 1;
  }

  /**
   * Moves the content up by `px` (a wheel or key scroll down), within the ends. The anchor stays
   * the same row while it is in view: rows were measured where they were drawn, and a new
   * anchor found by walking through rows not measured yet would be placed by their estimates.
   */
  moveBy(px: number): void {
    this.aligned = null;
    this.o -= px;
    this.clamp();
    if (!(this.o < this.viewport && this.o + this.h(this.a) > 0 && this.heights.has(this.a))) {
      Object.assign(this, this.normalized());
    }
  }

  /** Opens at the end: the last row's bottom at the viewport's bottom. */
  toEnd(): void {
    this.aligned = null;
    this.a = Math.max(0, this.count - 1);
    this.o = this.viewport - this.h(this.a);
    this.clamp();
  }

  /**
   * Puts row `i` where `align` says (`auto`: nowhere when it is in view already, else the
   * nearest edge). The row stays the anchor until the next scroll, so whatever is measured
   * around it, it stays where it was put. Returns whether anything moved.
   */
  toIndex(i: number, align: Align = 'auto'): boolean {
    if (this.count === 0) return false;
    i = Math.max(0, Math.min(this.count - 1, i));
    if (align === 'auto') {
      if (this.fullyInView(i)) return false;
      align = i < this.visible()[0] ? 'start' : 'end';
    }
    const h = this.h(i);
    this.a = i;
    this.o = align === 'start' ? 0 : align === 'end' ? this.viewport - h : (this.viewport - h) / 2;
    this.aligned = { i, align, h };
    this.clamp();
    return true;
  }

  /** A row scrolled to was measured since (drawn, or its page landed): aligned again with its height. */
  realign(): void {
    const to = this.aligned;
    if (to && to.align !== 'start' && this.h(to.i) !== to.h) this.toIndex(to.i, to.align);
  }

  /** The anchor for a real scroll position taken as a place in the whole list (the scrollbar's). */
  fromScroll(s: number): void {
    if (this.count === 0) return;
    this.aligned = null;
    if (s <= this.margin) {
      this.a = 0;
      this.o = this.margin - s;
    } else if (s >= this.maxScroll - 0.5) {
      this.toEnd();
      return;
    } else {
      const t = Math.min(rowAtScroll(s - this.margin, this.span, this.rowsOver), this.count - 1);
      this.a = Math.floor(t);
      this.o = -(t - this.a) * this.h(this.a);
    }
    this.clamp();
    Object.assign(this, this.normalized());
  }

  /** The real scroll position of the anchor: 1:1 while the content above the list shows, scaled below it. */
  toScroll(): number {
    const { a, o } = this.normalized();
    if (a === 0 && o >= 0) return Math.max(0, this.margin - o);
    if (this.atEnd()) return this.maxScroll;
    const s = this.margin + scrollAtRow(a - o / this.h(a), this.span, this.rowsOver);
    // Only the end itself is at the end of the scrollbar (a drag there shows the last row).
    return Math.max(0, Math.min(this.maxScroll - 1, s));
  }

  /** Rows in the viewport, [first, last]. */
  visible(): [number, number] {
    if (this.count === 0) return [0, -1];
    const { a, o } = this.normalized();
    let y = o;
    let i = a;
    while (i < this.count - 1 && y + this.h(i) < this.viewport) y += this.h(i++);
    return [a, i];
  }

  private fullyInView(i: number): boolean {
    const [first, last] = this.visible();
    if (i < first || i > last) return false;
    const { a, o } = this.normalized();
    let y = o;
    for (let k = a; k < i; k++) y += this.h(k);
    return y >= 0 && y + this.h(i) <= this.viewport;
  }

  /** Rows to draw: those in view and `over` px of rows beyond each edge. */
  drawRange(over: number): [number, number] {
    if (this.count === 0) return [0, -1];
    let y = this.o;
    let i = this.a;
    while (i < this.count && y < this.viewport + over) y += this.h(i++);
    let last = Math.max(this.a, i - 1);
    y = this.o;
    let first = this.a;
    while (first > 0 && y > -over) y -= this.h(--first);
    if (last - first + 1 > MAX_DRAWN) {
      first = Math.max(first, this.a - MAX_DRAWN / 4);
      last = Math.min(last, first + MAX_DRAWN - 1);
    }
    return [first, last];
  }
}

const NONE: readonly [number, number] = [0, -1];

/** Focus is in a field that takes text: its keys are its own. */
const typing = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement &&
  (t.isContentEditable || t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT');

/** An element between `from` and the list's scroll box that can itself scroll by `dy` (a raw entry, a long block). */
function innerScroller(from: EventTarget | null, box: HTMLElement, dy: number): boolean {
  for (let n = from instanceof Element ? from : null; n && n !== box; n = n.parentElement) {
    if (n.scrollHeight <= n.clientHeight + 1) continue;
    const oy = getComputedStyle(n).overflowY;
    if (oy !== 'auto' && oy !== 'scroll') continue;
    if (dy < 0 ? n.scrollTop > 0 : n.scrollTop + n.clientHeight < n.scrollHeight - 1) return true;
  }
  return false;
}

/** A drawn row's height, unrounded (jsdom lays nothing out: its offsetHeight, as a test stubs it). */
const heightOf = (el: HTMLElement): number => el.getBoundingClientRect().height || el.offsetHeight;

interface ScrollerParts {
  el: HTMLElement;
  box: () => HTMLElement | null;
  win: () => HTMLElement | null;
  overscanPx: number;
  /** Draws rows [first, last]: now (inside the event, before the frame paints) or with the next render. */
  draw: (range: readonly [number, number], now: boolean) => void;
}

/** The DOM side of one scaled list: its scroll box's events, the window's place, the rows' heights. */
class ScaledScroller {
  readonly model: AnchoredRows;
  private drawn: readonly [number, number] = NONE;
  private asked: readonly [number, number] = NONE;
  /** The scroll position the list knows (it set it, or took it from the user): another one is the user's. */
  private top: number;
  /** The scrollbar is being dragged: a scroll position is a place in the whole list. */
  private dragging = false;
  /** Within a scroll of the user's scrollbar: its position is not written back. */
  private holdScroll = false;
  /** The window's `top` as last set (px). */
  private placedAt: number | null = null;
  /**
   * A new list draws its first screen alone and the rows beyond its edges a task later: drawing
   * and laying out both in the task that mounts the list was a task over 50 ms. Any
   * move of the user's draws them at once.
   */
  private screenOnly = true;
  private extend: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly p: ScrollerParts,
    count: number,
    estimate: number,
  ) {
    this.model = new AnchoredRows(count, estimate, p.el.clientHeight);
    this.model.margin = p.box()?.offsetTop ?? 0;
    this.top = p.el.scrollTop;
  }

  attach(): () => void {
    const { el } = this.p;
    const onScroll = (): void => this.onScroll();
    const onWheel = (e: WheelEvent): void => this.onWheel(e);
    const onKey = (e: KeyboardEvent): void => this.onKey(e);
    const onDown = (e: PointerEvent): void => {
      // A press on the scroll box's own scrollbar (right of its content): a thumb drag or a track click.
      this.dragging = e.target === el && e.offsetX >= el.clientWidth;
    };
    const onUp = (): void => void (this.dragging = false);
    el.addEventListener('scroll', onScroll, { passive: true });
    el.addEventListener('wheel', onWheel, { passive: false });
    el.addEventListener('keydown', onKey);
    el.addEventListener('pointerdown', onDown);
    // (Not scrollend: Chromium sends one after every step of a thumb drag.)
    window.addEventListener('pointerup', onUp, true);
    window.addEventListener('pointercancel', onUp, true);
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => this.relayout());
    ro?.observe(el);
    const win = this.p.win();
    if (win) ro?.observe(win);
    return () => {
      if (this.extend !== null) clearTimeout(this.extend);
      el.removeEventListener('scroll', onScroll);
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('keydown', onKey);
      el.removeEventListener('pointerdown', onDown);
      window.removeEventListener('pointerup', onUp, true);
      window.removeEventListener('pointercancel', onUp, true);
      ro?.disconnect();
    };
  }

  /** After React drew rows [first, last] (and whenever a row or the viewport changed size). */
  rendered(drawn: readonly [number, number]): void {
    this.drawn = drawn;
    this.relayout();
    if (this.screenOnly && this.extend === null && drawn[1] >= drawn[0]) {
      this.extend = setTimeout(() => {
        this.screenOnly = false;
        this.update(false);
      }, 0);
    }
  }

  setCount(count: number): void {
    if (count === this.model.count) return;
    const keep = this.takeScroll();
    this.model.count = count;
    this.update(false, keep === true);
  }

  scrollToIndex(i: number, align: Align): void {
    this.takeScroll();
    if (this.model.toIndex(i, align)) this.update(false);
  }

  inView(i: number): boolean {
    const [first, last] = this.model.visible();
    return i >= first && i <= last;
  }

  private relayout(): void {
    // A scroll the user made since, whose event has not come yet, is the user's: never overwritten.
    const keep = this.takeScroll();
    const { el, box } = this.p;
    this.model.viewport = el.clientHeight;
    this.model.margin = box()?.offsetTop ?? 0;
    const win = this.p.win();
    if (win) {
      for (const child of win.children) {
        const i = Number((child as HTMLElement).dataset.index);
        // Fractional: rounded heights (offsetHeight) would add up to a visible drift over a screen of rows.
        if (Number.isInteger(i)) this.model.measured(i, heightOf(child as HTMLElement));
      }
    }
    this.model.realign();
    this.model.clamp();
    this.update(false, keep === true);
  }

  /**
   * Shows the model: the rows it needs drawn (a render when they are not: the window is placed
   * after it), else the scroll position it maps to and the window placed at once.
   * `keepScroll`: the scroll position is the user's (the scrollbar): it is not written back.
   */
  private update(now: boolean, keepScroll = false): void {
    if (now) this.screenOnly = false;
    const over = this.screenOnly ? 0 : this.p.overscanPx;
    const [f, l] = this.drawn;
    const [nf, nl] = this.model.drawRange(over / 2);
    const anchorDrawn = this.model.a >= f && this.model.a <= l;
    const hold = this.holdScroll;
    this.holdScroll ||= keepScroll;
    try {
      if (!anchorDrawn || nf < f || nl > l) {
        const want = this.model.drawRange(over);
        if (want[0] !== this.asked[0] || want[1] !== this.asked[1]) {
          this.asked = want;
          // Drawn now, the render's layout effect has placed everything (rendered()).
          this.p.draw(want, now);
          if (now) return;
        }
        if (!anchorDrawn) return;
      }
      if (!this.holdScroll) this.writeScroll();
      this.place();
    } finally {
      this.holdScroll = hold;
    }
  }

  private writeScroll(): void {
    const { el } = this.p;
    const want = this.model.toScroll();
    if (Math.abs(want - el.scrollTop) >= 0.5) el.scrollTop = want;
    // Read back: the browser may round it.
    this.top = el.scrollTop;
  }

  /** Places the window so that the anchor row's top is at `o` in the viewport (of the real scroll position). */
  private place(): void {
    const win = this.p.win();
    if (!win) return;
    const { a, o, margin } = this.model;
    let row = win.children[a - this.drawn[0]] as HTMLElement | undefined;
    if (row?.dataset.index !== String(a)) row = win.querySelector<HTMLElement>(`[data-index="${a}"]`) ?? undefined;
    if (!row) return;
    const ya = row.getBoundingClientRect().top - win.getBoundingClientRect().top || row.offsetTop;
    // Whole pixels: a CSS length is a float, and at millions of px a fraction would not hold still.
    const top = Math.round(this.p.el.scrollTop + o - margin - ya);
    if (top !== this.placedAt) win.style.top = `${(this.placedAt = top)}px`;
  }

  /**
   * Takes a scroll position the list did not set into the model: the scrollbar's (or a jump no
   * wheel makes, or either end) as a place in the whole list (true), a few pixels by the browser
   * (focus, find, touch) as as many pixels of rows (false); null when there was none.
   */
  private takeScroll(): boolean | null {
    const s = this.p.el.scrollTop;
    if (s === this.top) return null;
    const d = s - this.top;
    this.top = s;
    // The scroll box's very ends are the list's: whatever moved it there, the first or the last row shows.
    const edge = s <= 0 || s >= this.model.maxScroll - 0.5;
    if (this.dragging || edge || Math.abs(d) > 1.5 * this.model.viewport) {
      this.model.fromScroll(s);
      return true;
    }
    this.model.moveBy(d);
    return false;
  }

  private onScroll(): void {
    const keep = this.takeScroll();
    if (keep !== null) this.update(true, keep);
  }

  private onWheel(e: WheelEvent): void {
    if (e.defaultPrevented || e.ctrlKey || e.deltaY === 0 || Math.abs(e.deltaX) > Math.abs(e.deltaY)) return;
    if (innerScroller(e.target, this.p.el, e.deltaY)) return;
    e.preventDefault();
    this.dragging = false;
    this.takeScroll();
    const unit = e.deltaMode === 1 ? LINE_PX : e.deltaMode === 2 ? this.model.viewport : 1;
    this.model.moveBy(e.deltaY * unit);
    this.update(true);
  }

  private onKey(e: KeyboardEvent): void {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || typing(e.target)) return;
    const page = this.model.viewport * PAGE_FRACTION;
    const by = new Map([
      ['ArrowDown', LINE_PX],
      ['ArrowUp', -LINE_PX],
      ['PageDown', page],
      ['PageUp', -page],
    ]);
    // Space pages only where the browser would: not on a control it would press.
    if (e.key === ' ' && e.target === this.p.el) by.set(' ', e.shiftKey ? -page : page);
    const step = by.get(e.key);
    if (e.key !== 'Home' && e.key !== 'End' && step === undefined) return;
    e.preventDefault();
    this.dragging = false;
    this.takeScroll();
    if (e.key === 'Home') this.model.fromScroll(0);
    else if (e.key === 'End') this.model.toEnd();
    else this.model.moveBy(step ?? 0);
    this.update(true);
  }
}

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
}): ScaledList {
  const { enabled, count, estimate, overscanPx, getScrollElement, boxRef, windowRef } = opts;
  const [drawn, setDrawn] = useState<readonly [number, number]>(NONE);
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
      },
      countRef.current,
      estimate,
    );
    ctl.current = c;
    c.model.toEnd();
    const detach = c.attach();
    c.rendered(NONE);
    return () => {
      detach();
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
