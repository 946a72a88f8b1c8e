// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TreeRow } from '../../shared/api';
import { MAX_SCROLL_PX } from '../data/scaled-rows';
import { TREE_PAGE as PAGE_SIZE } from '../data/session-sources';
import { useAppStore } from '../store/app-store';
import { injectFault } from '../test-support/api-faults';
import { renderOnBackend, sessionHash } from '../test-support/render-backend';

/** Past Chromium's element height at 24 px rows (1.39M rows): the tree must scroll scaled. */
const TOTAL = 2_000_000;

/** A synthetic row: one long line with a branch every 1000 rows. */
const rowAt = (i: number): TreeRow => ({
  row: i,
  index: i,
  id: `n${i}`,
  parentId: i === 0 ? null : `n${i - 1}`,
  kind: 'message',
  role: i % 2 ? 'assistant' : 'user',
  control: false,
  line: i + 1,
  ts: '2026-11-29T09:00:00.000Z',
  text: `row ${i}`,
  children: i === TOTAL - 1 ? 0 : 1,
  isBranchPoint: false,
  isLeaf: i === TOTAL - 1,
  isActiveLeaf: i === TOTAL - 1,
  isOrphan: false,
  hasWarning: false,
  lane: 0,
  through: i % 1000 < 10 ? [1] : [],
  forkFrom: null,
  forkTo: [],
  folded: null,
});

describe('a 2M-row session', () => {
  it('opens at the active leaf, scrolls scaled within a bounded height, and fetches only the pages shown', async () => {
    const pages: number[] = [];
    // A real backend over branching.jsonl whose tree is swapped for a synthetic 2M rows
    // (a 2M-entry ledger is the bench's job; this checks what the renderer asks for and draws).
    await renderOnBackend({
      fixtures: ['branching'],
      hash: sessionHash('branching'),
      before: (a) => {
        injectFault(a, 'openSession', async (req, real) => ({
          ...(await real(req)),
          rowCount: TOTAL,
          foldedRowCount: TOTAL,
          entryCount: TOTAL,
          activeLeaf: `n${TOTAL - 1}`,
          activeLeafRows: { row: TOTAL - 1, foldedRow: TOTAL - 1 },
        }));
        injectFault(a, 'getTreeRows', async (req) => {
          pages.push(req.start);
          return {
            total: TOTAL,
            laneCount: 2,
            rows: Array.from({ length: Math.min(req.count, TOTAL - req.start) }, (_, k) => rowAt(req.start + k)),
          };
        });
        injectFault(a, 'findRow', async (req) => ({ row: Number(req.id.slice(1)) }));
        // The leaf's panes are not what this test is about: the synthetic leaf has none.
        injectFault(a, 'getLeafView', (req, real) => real({ ...req, leaf: null }));
      },
    });
    // The tree opens on the active leaf, the last row, in view.
    await screen.findByText(`row ${TOTAL - 1}`);
    const scroller = document.querySelector<HTMLElement>('.tree-scroll')!;
    const content = scroller.firstElementChild as HTMLElement;
    // The scroll content stays within what a browser can lay out; the last row sits at its bottom.
    expect(content.style.height).toBe(`${MAX_SCROLL_PX}px`);
    const lastRow = document.querySelector<HTMLElement>(`[data-entry-id="n${TOTAL - 1}"]`)!;
    expect(parseFloat(lastRow.style.top)).toBeCloseTo(MAX_SCROLL_PX - 24, 0);
    const drawn = document.querySelectorAll('.tree-row').length;
    expect(drawn).toBeGreaterThan(10);
    expect(drawn).toBeLessThan(120);
    expect(pages.length).toBeLessThanOrEqual(2);

    // The middle of the scroll box is the middle of the session (linear), one more page.
    // A jump draws the screen and a row or two beyond it first (the commit a far jump waits on
    // mounts a screen of rows at once); the margin for scrolling follows in a later commit.
    const loaded = () => document.querySelectorAll('.tree-row[data-entry-id]').length;
    let firstDrawn = 0;
    const watch = new MutationObserver(() => {
      if (!firstDrawn && document.querySelector(`[data-entry-id="n${TOTAL / 2}"]`)) firstDrawn = loaded();
    });
    watch.observe(scroller, { childList: true, subtree: true });
    await act(async () => {
      scroller.scrollTop = (MAX_SCROLL_PX - 800) / 2;
      scroller.dispatchEvent(new Event('scroll'));
    });
    await screen.findByText(`row ${TOTAL / 2}`);
    await waitFor(() => expect(loaded()).toBeGreaterThanOrEqual(Math.ceil(800 / 24) + 2 * 12));
    watch.disconnect();
    expect(firstDrawn).toBeGreaterThanOrEqual(Math.ceil(800 / 24));
    expect(firstDrawn).toBeLessThanOrEqual(Math.ceil(800 / 24) + 1 + 2 * 2);
    const mid = document.querySelector<HTMLElement>(`[data-entry-id="n${TOTAL / 2}"]`)!;
    // Drawn where the scroll box shows it (within the viewport), not at its virtual 48M px.
    const y = parseFloat(mid.style.top) - scroller.scrollTop;
    expect(y).toBeGreaterThanOrEqual(0);
    expect(y).toBeLessThan(800);
    expect(pages).toContain(Math.floor(TOTAL / 2 / PAGE_SIZE) * PAGE_SIZE);
    expect(pages.length).toBeLessThanOrEqual(4);

    // Home goes to row 0 at the top, End back to the last row: both ends reachable.
    act(() => {
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true }));
    });
    await screen.findByText('row 0');
    expect(scroller.scrollTop).toBe(0);
    act(() => {
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    });
    await waitFor(() => expect(useAppStore.getState().selectedRow).toBe(TOTAL - 1));
    await screen.findByText(`row ${TOTAL - 1}`);
    await waitFor(() => expect(useAppStore.getState().leaf).toBe(`n${TOTAL - 1}`));
  });
});
