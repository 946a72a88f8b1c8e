// @vitest-environment jsdom
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { injectFault } from '../test-support/api-faults';
import { renderOnBackend, sessionHash, treeRow } from '../test-support/render-backend';

const placeholders = (): number => document.querySelectorAll('.tree-scroll .tree-row.placeholder').length;

describe('the tree while its rows are on their way', () => {
  it('draws no placeholder rows before its first paint, then placeholders, then the rows', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    // What the list's commits drew, seen before any frame (a mutation record comes in a microtask).
    let atMount: number | null = null;
    const seen = new MutationObserver(() => {
      if (atMount === null && document.querySelector('.tree-scroll')) atMount = placeholders();
    });
    seen.observe(document.body, { childList: true, subtree: true });
    try {
      await renderOnBackend({
        fixtures: ['branching'],
        hash: sessionHash('branching'),
        before: (a) =>
          injectFault(a, 'getTreeRows', async (req, real) => {
            await held;
            return real(req);
          }),
      });
      await waitFor(() => expect(atMount).not.toBeNull());
      // A placeholder drawn there would be replaced by its row in the next commit, unseen.
      expect(atMount).toBe(0);
      // The rows still on their way after a paint: the list says so, row by row.
      await waitFor(() => expect(placeholders()).toBeGreaterThan(0));
      release();
      await waitFor(() => expect(treeRow('e0013').textContent).toContain('◀ active'));
      expect(placeholders()).toBe(0);
    } finally {
      seen.disconnect();
      release();
    }
  });
});
