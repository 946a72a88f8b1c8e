// @vitest-environment jsdom
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { type RefObject, useRef } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SCROLL_PX } from '../data/scaled-rows';
import { stubLayout } from '../test-support/render-backend';
import { stubScrolling } from '../test-support/scroll-stub';
import { ANCHORED_FROM_ROWS, learnedEstimate, type PaneRect, PaneRowsBox, usePaneRows } from './pane-rows';

/** A list as the panes draw one: rows of `estimate` px, opening at the end. */
function List({
  count,
  estimate,
  firstOverscan,
  learned,
  rect,
  renders,
}: {
  count: number;
  estimate: number;
  firstOverscan?: number;
  learned?: RefObject<number | null>;
  rect?: RefObject<PaneRect | null>;
  /** Each render's drawn rows, in order (a probe of what each commit drew). */
  renders?: number[][];
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const windowRef = useRef<HTMLDivElement>(null);
  const list = usePaneRows(
    {
      count,
      getScrollElement: () => scrollRef.current,
      estimateSize: () => estimate,
      overscan: 4,
      ...(firstOverscan !== undefined ? { firstOverscan } : {}),
      ...(learned ? { learned } : {}),
      ...(rect ? { rect } : {}),
      openAtEnd: true,
    },
    boxRef,
    windowRef,
  );
  renders?.push(list.items.map((it) => it.index));
  return (
    <div className="scroller" ref={scrollRef} {...list.scrollProps}>
      <PaneRowsBox rows={list} boxRef={boxRef} windowRef={windowRef}>
        {list.items.map((it) => (
          <div key={it.key} className="row" {...list.row(it)}>
            row {it.index}
          </div>
        ))}
      </PaneRowsBox>
    </div>
  );
}

const rows = () => [...document.querySelectorAll<HTMLElement>('.row')].map((r) => Number(r.dataset.index));
const box = () => document.querySelector<HTMLElement>('.scroller > div')!;

describe('a pane list on either side of the limit', () => {
  let unstub: () => void;
  beforeAll(() => {
    stubLayout();
    unstub = stubScrolling(28);
  });
  afterAll(() => unstub());
  afterEach(cleanup);

  it('is virtualized below MAX_SCROLL_PX and scaled above it, opening at the end either way', () => {
    const { rerender } = render(<List count={1000} estimate={28} />);
    expect(document.querySelector('.scroller')!.hasAttribute('data-scaled')).toBe(false);
    expect(box().style.height).toBe(`${1000 * 28}px`);
    expect(rows()).toContain(999);
    // A live append takes it past the limit: the same list goes on scaled, at the end.
    const n = Math.ceil(MAX_SCROLL_PX / 28) + 10;
    act(() => rerender(<List count={n} estimate={28} />));
    expect(document.querySelector('.scroller')!.hasAttribute('data-scaled')).toBe(true);
    expect(box().style.height).toBe(`${MAX_SCROLL_PX}px`);
    expect(rows()).toContain(n - 1);
    expect(rows().length).toBeLessThan(60);
  });

  it('lays a new list out once: every row of its first screen is read before any row is moved', () => {
    // A read after a write is a layout in a browser (jsdom has none): count them from the DOM's
    // own record of the writes (styles, rows added) between reads of a row's height.
    const mo = new MutationObserver(() => undefined);
    mo.observe(document.body, { attributes: true, childList: true, subtree: true });
    const height = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight')!;
    let layouts = 0;
    let dirty = true;
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
      configurable: true,
      get(this: HTMLElement) {
        if (mo.takeRecords().length > 0) dirty = true;
        if (dirty && this.hasAttribute('data-index')) {
          layouts++;
          dirty = false;
        }
        return height.get!.call(this) as number;
      },
    });
    try {
      // Rows measure 28 px against an estimate of 22: every row moves the ones below it.
      render(<List count={1000} estimate={22} />);
    } finally {
      Object.defineProperty(HTMLElement.prototype, 'offsetHeight', height);
      mo.disconnect();
    }
    expect(rows().length).toBeGreaterThan(20);
    expect(rows()).toContain(999);
    // One per commit (the first screen, then the rows its real heights bring into range).
    expect(layouts).toBeLessThanOrEqual(3);
  });

  it("draws a new list's first screen with firstOverscan rows beyond the edge, the rest after its paint", async () => {
    // 800 px of 28 px rows at the end of 1000: rows 971 … 999 on screen.
    const commits: number[][] = [];
    const watch = new MutationObserver(() => commits.push(rows()));
    watch.observe(document.body, { childList: true, subtree: true });
    try {
      render(<List count={1000} estimate={28} firstOverscan={1} />);
      const first = rows();
      expect(first).toContain(999);
      expect(Math.min(...first)).toBeGreaterThanOrEqual(999 - Math.ceil(800 / 28) - 1);
      // Then the full margin (4 rows), in a later commit.
      await waitFor(() => expect(Math.min(...rows())).toBe(Math.min(...first) - 3));
    } finally {
      watch.disconnect();
    }
  });

  it('estimates a new list at the mean height its pane measured last', () => {
    const learned: { current: number | null } = { current: null };
    // Rows measure 28 px against a guess of 96: the first list draws by the guess (few rows) ...
    render(<List count={1000} estimate={96} learned={learned} />);
    expect(learned.current).toBe(28);
    cleanup();
    // ... the next one by what was measured: its first commit fills the screen, and no more.
    render(<List count={1000} estimate={96} learned={learned} />);
    expect(box().style.height).toBe(`${1000 * 28}px`);
    expect(rows().length).toBeGreaterThanOrEqual(Math.ceil(800 / 28));
    // A mean far from the guess is bounded near it.
    expect(learnedEstimate(5, 96)).toBe(24);
    expect(learnedEstimate(5000, 96)).toBe(96 * 8);
    expect(learnedEstimate(null, 96)).toBe(96);
  });

  it("reads no box size in a new list's commit when its pane kept one", () => {
    // Read after the rows were measured and moved, the box's size is one more layout of the new
    // view in the click's task; the ResizeObserver reports it after the frame's layout instead.
    const rect: { current: PaneRect | null } = { current: null };
    render(<List count={1000} estimate={28} rect={rect} />);
    expect(rect.current).toEqual({ width: 1000, height: 800 });
    cleanup();
    const reads = { n: 0 };
    const props = ['clientWidth', 'clientHeight'] as const;
    const saved = props.map((k) => Object.getOwnPropertyDescriptor(HTMLElement.prototype, k)!);
    props.forEach((k, i) =>
      Object.defineProperty(HTMLElement.prototype, k, {
        configurable: true,
        get(this: HTMLElement) {
          if (this.classList.contains('scroller')) reads.n++;
          return saved[i]!.get!.call(this) as number;
        },
      }),
    );
    try {
      render(<List count={1000} estimate={28} rect={rect} />);
    } finally {
      props.forEach((k, i) => Object.defineProperty(HTMLElement.prototype, k, saved[i]!));
    }
    expect(rows()).toContain(999);
    expect(rows().length).toBeGreaterThanOrEqual(Math.ceil(800 / 28));
    expect(reads.n).toBe(0);
  });

  it("copies the list's keys a bounded number of times while measuring a new view, not once per row", () => {
    // The virtualizer recomputes its rows' starts by copying its keys (one array of `count`): done
    // before each resize of a batch once one has moved the scroll position, it was work in
    // proportion to the rows, once per row of the first screen.
    // The most rows the virtualizer draws (past them the list is anchored).
    const count = ANCHORED_FROM_ROWS;
    const slice = Array.prototype.slice;
    let copies = 0;
    Array.prototype.slice = function (this: unknown[], ...args: [number?, number?]) {
      if (args.length === 0 && this.length === count) copies++;
      return slice.apply(this, args) as unknown[];
    };
    try {
      // Rows measure 28 px against an estimate of 22: every row's size moves the scroll position.
      render(<List count={count} estimate={22} />);
    } finally {
      Array.prototype.slice = slice;
    }
    expect(rows()).toContain(count - 1);
    expect(rows().length).toBeGreaterThan(20);
    expect(copies).toBeLessThanOrEqual(4);
  });

  it('anchors a list of a few thousand rows, and a new one is estimated at the heights the last one measured', () => {
    // A leaf in the first half of a 35k-entry chain has ~10k messages: the virtualizer's work for
    // such a new list (every row's estimate laid out, its keys copied as rows are measured) came in
    // the task a click waits on. Anchored, its cost follows the screen; and, like the
    // virtualized lists, it tells the pane its rows' height, so the next list's first render draws
    // a full screen (at the guess, 96 px against the 28 drawn, it drew a third of one and the rest
    // in a second render and layout).
    const count = 5_000;
    const learned: { current: number | null } = { current: null };
    const rect: { current: PaneRect | null } = { current: null };
    render(<List count={count} estimate={96} learned={learned} rect={rect} />);
    expect(document.querySelector('.scroller')!.hasAttribute('data-scaled')).toBe(true);
    expect(learned.current).toBe(28);
    cleanup();
    const renders: number[][] = [];
    render(<List count={count} estimate={96} learned={learned} rect={rect} renders={renders} />);
    expect(renders[0]).toContain(count - 1);
    expect(renders[0]!.length).toBeGreaterThanOrEqual(Math.ceil(800 / 28));
  });

  it("draws a scaled list's first screen in its first render when its pane kept the box size", () => {
    // Past ANCHORED_FROM_ROWS the list is scaled. From the box's size the list before it saw, a
    // new one draws the screen at the end at once: without it the first commit had no row and
    // the rows came in a second render and commit, synchronously, in the task a click waits on.
    const count = 40_000;
    const rect: { current: PaneRect | null } = { current: null };
    render(<List count={count} estimate={28} rect={rect} />);
    expect(document.querySelector('.scroller')!.hasAttribute('data-scaled')).toBe(true);
    expect(rect.current?.height).toBe(800);
    cleanup();
    const renders: number[][] = [];
    render(<List count={count} estimate={28} rect={rect} renders={renders} />);
    // One render in the mount (the margin beyond the screen comes in a later task, after the paint).
    expect(renders).toHaveLength(1);
    expect(renders[0]).toContain(count - 1);
    expect(renders[0]!.length).toBeGreaterThanOrEqual(Math.ceil(800 / 28));
    expect(rows()).toEqual(renders[0]);
  });
});
