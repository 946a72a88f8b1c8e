import { MAX_SCROLL_PX, rowAtScroll, scrollAtRow } from './scaled-rows';

/**
 * The pure half of a scaled list (scaled-list.ts says why the technique): where its rows sit,
 * with no DOM, so that it is tested at millions of rows.
 */

export type Align = 'auto' | 'start' | 'center' | 'end';

/** Most rows one window draws, whatever the heights say (a guard against rows measured at 0). */
const MAX_DRAWN = 400;
/** Measured heights kept (the most recently measured first): enough for a long read, bounded. */
const MAX_HEIGHTS = 50_000;

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
