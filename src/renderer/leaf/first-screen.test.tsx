// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeafView, LeafViewRequest } from '../../shared/api';
import { injectFault } from '../test-support/api-faults';
import { renderOnBackend, sessionHash } from '../test-support/render-backend';
import { stubScrolling } from '../test-support/scroll-stub';
import { leafScreen, HISTORY_OVERSCAN, HISTORY_ROW_PX, MESSAGE_MIN_PX, MESSAGE_OVERSCAN } from '../util/leaf-screen';
import { longSession } from '../test-support/written-sessions';

/** The window, and each pane's scroll box in it (render-backend.tsx stubs every box at 800 px). */
const WINDOW = 1000;
const PANE = 800;

const rowsIn = (pane: string, row: string): number =>
  screen.queryByRole('region', { name: pane })?.querySelectorAll(row).length ?? 0;
const counts = () => ({
  history: rowsIn('History', '.history-item'),
  projected: rowsIn('Projected context', '.projected-msg'),
});

/**
 * A new leaf's first answer and first commit hold what the screen shows: the History's rows at
 * the leaf end and the projected pane's last messages, for the window's height; what is drawn
 * beyond the edge once painted is in that answer too (no page asked), the rest comes by page.
 */
describe("a leaf's first screen", () => {
  let unstub: () => void;
  const height = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight')!;
  const innerHeight = window.innerHeight;
  beforeAll(() => {
    unstub = stubScrolling(HISTORY_ROW_PX);
    // Every row at the smallest each pane draws: the most rows a screen can hold.
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
      configurable: true,
      get(this: HTMLElement) {
        if (!this.hasAttribute('data-index')) return 0;
        return this.closest('.projected-pane') ? MESSAGE_MIN_PX : HISTORY_ROW_PX;
      },
    });
    window.innerHeight = WINDOW;
  });
  afterAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', height);
    unstub();
    window.innerHeight = innerHeight;
  });

  it('is asked for the window, answered with the screen, drawn screen first, and asks no page', async () => {
    const asked: LeafViewRequest[] = [];
    const answers: LeafView[] = [];
    // 1 header + 400 × (user, assistant, receipt): 1,201 entries, 800 projected messages.
    const api = await renderOnBackend({
      written: { long: longSession(400) },
      hash: sessionHash('long'),
      before: (a) =>
        injectFault(a, 'getLeafView', async (req, real) => {
          asked.push(req);
          const v = await real(req);
          answers.push(v);
          return v;
        }),
    });
    // The first commit that shows the panes, as a MutationObserver sees it (a commit is one task).
    let first: { history: number; projected: number } | null = null;
    const watch = new MutationObserver(() => {
      if (first) return;
      const c = counts();
      if (c.history > 0 && c.projected > 0) first = c;
    });
    watch.observe(document.body, { subtree: true, childList: true });
    try {
      await waitFor(() => expect(first).not.toBeNull());
    } finally {
      watch.disconnect();
    }

    const want = leafScreen(WINDOW)!;
    expect(want).toEqual({
      chainRows: Math.ceil(WINDOW / HISTORY_ROW_PX) + HISTORY_OVERSCAN,
      messages: Math.ceil(WINDOW / MESSAGE_MIN_PX) + MESSAGE_OVERSCAN,
    });
    expect(asked).toHaveLength(1);
    expect(asked[0].screen).toEqual(want);
    // The answer: that many rows at the leaf end, that many messages at the pane's end, nothing before them.
    const v = answers[0];
    expect(v.chainLength).toBe(1201);
    expect(v.chain).toHaveLength(want.chainRows);
    expect(v.chainStart).toBe(v.chainLength - want.chainRows);
    expect(v.messageCount).toBeGreaterThan(want.messages * 10);
    expect(v.messagePages.map((p) => [p.start, p.messages.length])).toEqual([
      [v.messageCount - want.messages, want.messages],
    ]);

    // The first commit draws the pane's screen and at most two rows beyond its edge.
    expect(first!.history).toBeLessThanOrEqual(Math.ceil(PANE / HISTORY_ROW_PX) + 2);
    expect(first!.projected).toBeLessThanOrEqual(Math.ceil(PANE / MESSAGE_MIN_PX) + 2);
    // After its paint, the margin beyond the edge, from the same answer: no page asked.
    await waitFor(() =>
      expect(counts()).toEqual({
        history: Math.ceil(PANE / HISTORY_ROW_PX) + HISTORY_OVERSCAN,
        projected: Math.ceil(PANE / MESSAGE_MIN_PX) + MESSAGE_OVERSCAN,
      }),
    );
    expect(api.calls.filter((c) => c.method === 'getChainItems' || c.method === 'getProjectedMessages')).toEqual([]);
  });
});
