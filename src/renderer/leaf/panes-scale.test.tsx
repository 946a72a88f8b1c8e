// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainItem, LeafView, ProjectedMessagesPage } from '../../shared/api';
import type { ProjectedMessage } from '../../shared/ledger-types';
import { MAX_SCROLL_PX } from '../data/scaled-rows';
import { injectFault } from '../test-support/api-faults';
import { renderOnBackend, sessionHash } from '../test-support/render-backend';
import { stubScrolling } from '../test-support/scroll-stub';
import { longSession } from '../test-support/written-sessions';

/** Past Chromium's element height at any row height the panes estimate: both lists scroll scaled. */
const N = 2_000_000;
/** The stubbed height of a drawn row (scroll-stub.ts): a History row's, as Chromium draws one (its estimate). */
const ROW = 22;
const VIEW = 800;

const history = () => screen.getByRole('region', { name: 'History' });
const projected = () => screen.getByRole('region', { name: 'Projected context' });
const scrollerOf = (pane: HTMLElement) => pane.querySelector<HTMLElement>('.pane-scroll')!;
const entry = (p: number) => history().querySelector<HTMLElement>(`.history-item[data-entry-id="c${p}"]`);
const message = (i: number) => projected().querySelector<HTMLElement>(`.projected-msg[data-message-index="${i}"]`);

/**
 * Where a drawn row sits in its viewport. jsdom lays nothing out: this is what Chromium would
 * compute from the window's `top` (placed by scaled-scroller.ts), the row's place in the window
 * (offsetTop, stubbed below at ROW px a row) and the scroll position.
 */
function viewY(el: HTMLElement): number {
  const row = el.closest<HTMLElement>('[data-index]')!;
  const win = row.parentElement!;
  return parseFloat(win.style.top) + row.offsetTop - win.closest<HTMLElement>('.pane-scroll')!.scrollTop;
}
const onScreen = (el: HTMLElement | null): boolean => !!el && viewY(el) > -ROW && viewY(el) < VIEW;

function thumbTo(pane: HTMLElement, top: number): void {
  const el = scrollerOf(pane);
  act(() => {
    el.scrollTop = top;
    el.dispatchEvent(new Event('scroll'));
  });
}

function wheel(pane: HTMLElement, deltaY: number): void {
  act(() => {
    scrollerOf(pane).dispatchEvent(new WheelEvent('wheel', { deltaY, bubbles: true, cancelable: true }));
  });
}

const key = (pane: HTMLElement, k: string): void => void fireEvent.keyDown(scrollerOf(pane), { key: k });

/**
 * A real backend over a small written session whose active leaf's chain and projection are
 * swapped for 2M synthetic rows each: entry c<p> at chain position p went to message #p (a
 * 2M-entry ledger is ~1 GB: the bench's job; this checks what the panes ask for and draw).
 */
async function renderTwoMillion(): Promise<{ chainPages: number[]; messagePages: number[] }> {
  const chainPages: number[] = [];
  const messagePages: number[] = [];
  let itemOf: (p: number) => ChainItem = () => {
    throw new Error('no view yet');
  };
  let messageOf: (p: number) => ProjectedMessage = itemOf as never;
  const page = (start: number, count: number): ProjectedMessagesPage => {
    const messages = Array.from({ length: Math.max(0, Math.min(count, N - start)) }, (_, k) => messageOf(start + k));
    return {
      start,
      messages,
      clipped: [],
      sourcePositions: Object.fromEntries(messages.map((_, k) => [`c${start + k}`, start + k])),
    };
  };
  await renderOnBackend({
    written: { long: longSession(3) },
    hash: sessionHash('long'),
    before: (api) => {
      injectFault(api, 'getLeafView', async (req, real): Promise<LeafView> => {
        const v = await real(req);
        const tpl = v.chain.find((c) => c.projectedAs.length === 1)!;
        const msg = v.messagePages[0].messages[0];
        itemOf = (p) => ({ ...tpl, pos: p, id: `c${p}`, index: p, line: p + 1, text: `entry ${p}`, projectedAs: [p] });
        messageOf = (p) => ({ ...msg, content: [{ type: 'text', text: `message ${p}` }], source_ids: [`c${p}`] });
        const head = page(0, 30);
        const tail = page(N - 10, 10);
        return {
          ...v,
          chainLength: N,
          chainStart: N - 200,
          chain: Array.from({ length: 200 }, (_, k) => itemOf(N - 200 + k)),
          kindCounts: { message: N },
          messageCount: N,
          messagePages: [head, tail],
          sourcePositions: { ...head.sourcePositions, ...tail.sourcePositions },
        };
      });
      injectFault(api, 'getChainItems', async (req) => {
        chainPages.push(req.start);
        const count = Math.max(0, Math.min(req.count, N - req.start));
        return {
          chainLength: N,
          total: N,
          start: req.start,
          items: Array.from({ length: count }, (_, k) => itemOf(req.start + k)),
        };
      });
      injectFault(api, 'getProjectedMessages', async (req) => {
        messagePages.push(req.start);
        return { ...page(req.start, req.count), total: N };
      });
    },
  });
  await waitFor(() => expect(entry(N - 1)).not.toBeNull());
  await waitFor(() => expect(message(N - 1)).not.toBeNull());
  return { chainPages, messagePages };
}

describe('History and Projected past the element height (2M rows each)', () => {
  let unstub: () => void;
  const offsetTop = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetTop')!;
  beforeAll(() => {
    unstub = stubScrolling(ROW);
    // A row's place in its window: rows in flow, ROW px each (as scroll-stub measures them).
    Object.defineProperty(HTMLElement.prototype, 'offsetTop', {
      configurable: true,
      get(this: HTMLElement) {
        if (!this.hasAttribute('data-index') || !this.parentElement) return 0;
        return [...this.parentElement.children].indexOf(this) * ROW;
      },
    });
  });
  afterAll(() => {
    unstub();
    Object.defineProperty(HTMLElement.prototype, 'offsetTop', offsetTop);
  });

  it('the History opens at the leaf end and reaches the middle, the first and the last row', async () => {
    const { chainPages } = await renderTwoMillion();
    const el = scrollerOf(history());
    const box = el.querySelector<HTMLElement>('[style*="height"]')!;
    // The scroll content stays within what a browser lays out; the last row at the viewport's bottom.
    expect(box.style.height).toBe(`${MAX_SCROLL_PX}px`);
    expect(el.scrollTop).toBe(MAX_SCROLL_PX - VIEW);
    expect(viewY(entry(N - 1)!)).toBe(VIEW - ROW);
    expect(history().querySelectorAll('.history-item').length).toBeLessThan(80);
    expect(chainPages).toEqual([]);

    // The scrollbar's middle is the chain's middle (linear, as the tree): one page fetched there.
    thumbTo(history(), (MAX_SCROLL_PX - VIEW) / 2);
    await waitFor(() => expect(onScreen(entry(N / 2))).toBe(true));
    expect(chainPages.some((s) => s <= N / 2 && N / 2 < s + 200)).toBe(true);
    expect(chainPages.length).toBeLessThanOrEqual(2);

    // Its top is row 0, at the top.
    thumbTo(history(), 0);
    await waitFor(() => expect(entry(0)).not.toBeNull());
    expect(viewY(entry(0)!)).toBe(0);

    // A wheel moves by pixels, not by thousands of rows: 5 × 100 px is 22.7 rows of 22 px.
    const wheeled = Math.ceil(500 / ROW);
    for (let k = 0; k < 5; k++) wheel(history(), 100);
    await waitFor(() => expect(entry(wheeled)).not.toBeNull());
    expect(viewY(entry(wheeled)!)).toBeCloseTo(wheeled * ROW - 500, 0);
    // The scroll position follows, scaled: 22.7 rows of the 2M over the 8M px content.
    expect(el.scrollTop).toBeCloseTo((500 / ROW / (N - VIEW / ROW)) * (MAX_SCROLL_PX - VIEW), 0);

    // Keys on the list: PageDown a page of pixels, End the last row, Home the first.
    key(history(), 'PageDown');
    const paged = Math.ceil((500 + VIEW * 0.875) / ROW);
    expect(viewY(entry(paged)!)).toBeCloseTo(paged * ROW - 500 - VIEW * 0.875, 0);
    key(history(), 'End');
    await waitFor(() => expect(onScreen(entry(N - 1))).toBe(true));
    expect(viewY(entry(N - 1)!)).toBe(VIEW - ROW);
    expect(el.scrollTop).toBe(MAX_SCROLL_PX - VIEW);
    key(history(), 'Home');
    await waitFor(() => expect(entry(0)).not.toBeNull());
    expect(viewY(entry(0)!)).toBe(0);
    expect(el.scrollTop).toBe(0);
  });

  it('the projected pane opens at the leaf end and reaches the middle, the first and the last message', async () => {
    const { messagePages } = await renderTwoMillion();
    const el = scrollerOf(projected());
    expect(el.scrollTop).toBe(MAX_SCROLL_PX - VIEW);
    expect(viewY(message(N - 1)!)).toBe(VIEW - ROW);
    expect(projected().querySelectorAll('.projected-msg').length).toBeLessThan(80);

    thumbTo(projected(), (MAX_SCROLL_PX - VIEW) / 2);
    await waitFor(() => expect(onScreen(message(N / 2))).toBe(true));
    expect(messagePages.some((s) => s <= N / 2 && N / 2 < s + 50)).toBe(true);

    thumbTo(projected(), 0);
    await waitFor(() => expect(message(0)).not.toBeNull());
    expect(viewY(message(0)!)).toBe(0);
    expect(within(projected()).getByText('system prompt', { exact: false })).toBeTruthy();

    wheel(projected(), 3 * ROW);
    expect(viewY(message(3)!)).toBeCloseTo(0, 0);
    key(projected(), 'End');
    await waitFor(() => expect(onScreen(message(N - 1))).toBe(true));
    expect(viewY(message(N - 1)!)).toBe(VIEW - ROW);
  });

  it('a link scrolls the other pane to its partner row anywhere in 2M', async () => {
    await renderTwoMillion();
    // History → projected: entry c1000000 went to message #1000000 (not loaded): its link pages it in and scrolls there.
    thumbTo(history(), (MAX_SCROLL_PX - VIEW) / 2);
    await waitFor(() => expect(entry(N / 2)).not.toBeNull());
    fireEvent.click(within(entry(N / 2)!).getByRole('button', { name: /^#1000000/ }));
    await waitFor(() => expect(onScreen(message(N / 2))).toBe(true));
    expect(message(N / 2)!.classList.contains('linked')).toBe(true);
    // Centred, as below the limit.
    expect(Math.abs(viewY(message(N / 2)!) - (VIEW - ROW) / 2)).toBeLessThan(1);

    // Projected → history: a message near the start names c5; its source button scrolls the History there.
    thumbTo(projected(), 0);
    await waitFor(() => expect(message(5)).not.toBeNull());
    fireEvent.click(within(message(5)!).getByTitle('Show c5 in the History'));
    await waitFor(() => expect(onScreen(entry(5))).toBe(true));
    expect(entry(5)!.classList.contains('linked')).toBe(true);

    // And one three quarters in, from the other end of the History.
    thumbTo(projected(), (MAX_SCROLL_PX - VIEW) * 0.75);
    const far = Math.round((N - VIEW / 96) * 0.75) + 2;
    await waitFor(() => expect(message(far)).not.toBeNull());
    fireEvent.click(within(message(far)!).getByTitle(`Show c${far} in the History`));
    await waitFor(() => expect(onScreen(entry(far))).toBe(true));
    expect(entry(far)!.classList.contains('linked')).toBe(true);
  });
});
