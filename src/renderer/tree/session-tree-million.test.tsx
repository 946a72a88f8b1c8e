// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TreeRow } from '../../shared/api';
import { TREE_PAGE as PAGE_SIZE } from '../data/session-sources';
import { useAppStore } from '../store/app-store';
import { injectFault } from '../test-support/api-faults';
import { renderOnBackend, sessionHash } from '../test-support/render-backend';

const TOTAL = 1_000_000;

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

describe('a million-row session', () => {
  it('draws only the visible rows and fetches only their pages', async () => {
    const pages: number[] = [];
    // A real backend over branching.jsonl whose tree is swapped for a synthetic million rows
    // (a million-entry ledger is the bench's job; this checks what the renderer asks for and draws).
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
      },
    });
    await screen.findByText('row 0');
    const drawn = document.querySelectorAll('.tree-row').length;
    expect(drawn).toBeGreaterThan(10);
    expect(drawn).toBeLessThan(120);
    expect(pages).toEqual([0]);
    // Scroll to the middle: one more page, rows drawn there.
    const scroller = document.querySelector<HTMLElement>('.tree-scroll')!;
    await act(async () => {
      scroller.scrollTop = 500_000 * 24;
      scroller.dispatchEvent(new Event('scroll'));
    });
    await screen.findByText('row 500000');
    expect(pages).toContain(Math.floor(500_000 / PAGE_SIZE) * PAGE_SIZE);
    expect(pages.length).toBeLessThanOrEqual(3);
    // End jumps to the active leaf at the bottom.
    act(() => {
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    });
    // (jsdom cannot scroll, so the store is checked rather than the drawn row.)
    await waitFor(() => expect(useAppStore.getState().selectedRow).toBe(TOTAL - 1));
    expect(useAppStore.getState().leaf).toBe(`n${TOTAL - 1}`);
    expect(document.querySelector('.tree-scroll > div')?.getAttribute('style')).toContain(`height: ${TOTAL * 24}px`);
  });
});
