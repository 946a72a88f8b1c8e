// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scrollTopFor, useScaledRows, type ScaledRows } from './scaled-rows';

const ROW = 24;
const COUNT = 1000;
const KEPT = 500;

/** jsdom lays nothing out: the box's height is this, and every read of the box's geometry is counted. */
let boxHeight = 480;
let reads = 0;
const observers: Array<() => void> = [];
const undo: Array<() => void> = [];

beforeEach(() => {
  reads = 0;
  observers.length = 0;
  const own = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get: () => {
      reads++;
      return boxHeight;
    },
  });
  const top = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTop');
  if (!top?.get || !top.set) throw new Error('jsdom keeps scrollTop');
  const { get, set } = top;
  Object.defineProperty(Element.prototype, 'scrollTop', {
    configurable: true,
    get(this: Element) {
      reads++;
      return get.call(this) as number;
    },
    set(this: Element, v: number) {
      set.call(this, v);
    },
  });
  const w = window as unknown as { ResizeObserver?: unknown };
  const hadObserver = 'ResizeObserver' in w;
  const Observer = w.ResizeObserver;
  // Its first observation comes after the frame's layout, as a browser's: here when the test says.
  w.ResizeObserver = class {
    constructor(private readonly cb: () => void) {}
    observe() {
      observers.push(() => this.cb());
    }
    disconnect() {}
  };
  undo.push(() => {
    if (own) Object.defineProperty(HTMLElement.prototype, 'clientHeight', own);
    else delete (HTMLElement.prototype as unknown as { clientHeight?: number }).clientHeight;
    Object.defineProperty(Element.prototype, 'scrollTop', top);
    if (hadObserver) w.ResizeObserver = Observer;
    else delete w.ResizeObserver;
  });
});

afterEach(() => {
  cleanup();
  while (undo.length) undo.pop()?.();
});

/** Each render's rows, and the list's last state. */
function mount(viewport: number | null, anchorRow?: number) {
  const renders: Array<readonly [number, number]> = [];
  const list: { current: ScaledRows | null } = { current: null };
  function List() {
    const ref = useRef<HTMLDivElement>(null);
    const rows = useScaledRows({
      count: COUNT,
      rowHeight: ROW,
      scrollRef: ref,
      overscan: 0,
      initialRow: KEPT,
      viewport,
      ...(anchorRow !== undefined ? { anchorRow } : {}),
    });
    renders.push([rows.first, rows.last]);
    list.current = rows;
    return <div ref={ref} data-testid="box" />;
  }
  const { getByTestId } = render(<List />);
  return { renders, list, box: getByTestId('box') };
}

describe('a list of fixed rows opening on a kept row', () => {
  it('given its box height, draws its rows in its first render and reads nothing from the box as it mounts', () => {
    boxHeight = 480;
    const { renders, box } = mount(480);
    // One render: the rows of the kept row's screen, the kept row last on it.
    expect(renders).toHaveLength(1);
    const [first, last] = renders[0] ?? [0, -1];
    expect(first).toBeLessThanOrEqual(KEPT);
    expect(last).toBeGreaterThanOrEqual(KEPT);
    expect(last - first + 1).toBeLessThanOrEqual(480 / ROW + 2);
    // The scroll position set, the box not read (a read lays out the page the commit just changed).
    expect(reads).toBe(0);
    expect(box.scrollTop).toBe(scrollTopFor(KEPT, 'end', COUNT, ROW, 480, 0));
    // The first resize observation (after the frame's layout) confirms the guess: no render.
    act(() => observers.forEach((f) => f()));
    expect(renders).toHaveLength(1);
  });

  it('a reveal of a row computes from the position it last read or set, without reading the box', () => {
    boxHeight = 480;
    const { list, box } = mount(480);
    act(() => observers.forEach((f) => f()));
    reads = 0;
    act(() => list.current?.scrollToIndex(KEPT - 3, 'auto'));
    act(() => list.current?.scrollToIndex(10, 'auto'));
    // (Counted before the test reads the box itself.)
    expect(reads).toBe(0);
    expect(box.scrollTop).toBe(10 * ROW);
    expect(list.current?.first).toBe(10);
  });

  it('a height guessed wrong is put right at the first resize observation, the kept row still in view', () => {
    boxHeight = 720;
    const { renders, list, box } = mount(480);
    expect(renders[0]?.[1]).toBeGreaterThanOrEqual(KEPT);
    act(() => observers.forEach((f) => f()));
    const want = scrollTopFor(KEPT, 'end', COUNT, ROW, 720, 0);
    expect(box.scrollTop).toBe(want);
    expect(list.current?.first).toBe(Math.floor((want ?? 0) / ROW));
    expect(list.current?.last).toBeGreaterThanOrEqual(KEPT);
    expect(list.current?.viewport).toBe(720);
  });

  it('with no height given, measures the box as before', () => {
    boxHeight = 480;
    const { renders, box } = mount(null);
    expect(renders[0]).toEqual([0, -1]);
    expect(renders.at(-1)?.[1]).toBeGreaterThanOrEqual(KEPT);
    expect(box.scrollTop).toBe(scrollTopFor(KEPT, 'end', COUNT, ROW, 480, 0));
  });
});

describe('a list whose box changes height (a panel opened below it)', () => {
  const shownWhole = (box: HTMLElement, row: number, height: number): boolean =>
    row * ROW >= box.scrollTop && (row + 1) * ROW <= box.scrollTop + height;

  it('keeps its anchor row in view when the box shrinks under it', () => {
    boxHeight = 480;
    const { box, list } = mount(480, KEPT);
    act(() => observers.forEach((f) => f()));
    expect(shownWhole(box, KEPT, 480)).toBe(true);
    boxHeight = 240;
    act(() => observers.forEach((f) => f()));
    expect(shownWhole(box, KEPT, 240)).toBe(true);
    expect(list.current?.viewport).toBe(240);
    expect(list.current?.last).toBeGreaterThanOrEqual(KEPT);
  });

  it('keeps it too when a scroll event comes between the change of height and its observation', () => {
    boxHeight = 480;
    const { box } = mount(480, KEPT);
    act(() => observers.forEach((f) => f()));
    // A position set a frame before: its scroll event is dispatched in the next frame, before
    // the observer hears of a panel opened meanwhile.
    box.scrollTop = box.scrollTop + ROW;
    expect(shownWhole(box, KEPT, 480)).toBe(true);
    boxHeight = 240;
    act(() => void box.dispatchEvent(new Event('scroll')));
    act(() => observers.forEach((f) => f()));
    expect(shownWhole(box, KEPT, 240)).toBe(true);
  });

  it('puts right a kept position the box cut short, set while it was taller than the height given', () => {
    boxHeight = 240;
    const { box } = mount(240, KEPT);
    const given = scrollTopFor(KEPT, 'end', COUNT, ROW, 240, 0) ?? 0;
    expect(box.scrollTop).toBe(given);
    // A browser clamps a position past the end of a taller box (jsdom keeps any): as it would have.
    box.scrollTop = given - 5 * ROW;
    act(() => observers.forEach((f) => f()));
    expect(box.scrollTop).toBe(given);
    expect(shownWhole(box, KEPT, 240)).toBe(true);
  });

  it('leaves a scroll away from the anchor where it is', () => {
    boxHeight = 480;
    const { box, list } = mount(480, KEPT);
    act(() => observers.forEach((f) => f()));
    act(() => list.current?.scrollToIndex(10, 'start'));
    boxHeight = 240;
    act(() => observers.forEach((f) => f()));
    expect(box.scrollTop).toBe(10 * ROW);
    expect(list.current?.first).toBe(10);
  });
});
