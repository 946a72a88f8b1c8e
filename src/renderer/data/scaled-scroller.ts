import { AnchoredRows, type Align } from './anchored-rows';

/**
 * The DOM half of a scaled list (scaled-list.ts): the scroll box's events turned into moves of
 * the model (anchored-rows.ts), and the drawn window placed where the model says.
 */

/** A wheel line (deltaMode 1) and an arrow key, in px (what Chromium scrolls for one). */
const LINE_PX = 40;
/** A page key scrolls this much of the viewport (Chromium's own step). */
const PAGE_FRACTION = 0.875;

/** No rows drawn: a range [first, last] with last < first. */
export const NONE: readonly [number, number] = [0, -1];

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
export interface ScrollerParts {
  el: HTMLElement;
  box: () => HTMLElement | null;
  win: () => HTMLElement | null;
  overscanPx: number;
  /** Draws rows [first, last]: now (inside the event, before the frame paints) or with the next render. */
  draw: (range: readonly [number, number], now: boolean) => void;
  /** Told the mean height of the rows measured in a layout (the pane's next list is estimated at it). */
  measuredMean?: (px: number) => void;
}
export /** The DOM side of one scaled list: its scroll box's events, the window's place, the rows' heights. */
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
      let sum = 0;
      let n = 0;
      for (const child of win.children) {
        const i = Number((child as HTMLElement).dataset.index);
        if (!Number.isInteger(i)) continue;
        // Fractional: rounded heights (offsetHeight) would add up to a visible drift over a screen of rows.
        const px = heightOf(child as HTMLElement);
        this.model.measured(i, px);
        if (px > 0) {
          sum += px;
          n++;
        }
      }
      if (n > 0) this.p.measuredMean?.(sum / n);
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
