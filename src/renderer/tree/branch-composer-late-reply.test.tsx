// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { injectFault } from '../test-support/api-faults';
import { press, renderSession, treeRow } from '../test-support/render-backend';

const rows = () => document.querySelectorAll('.tree-row:not(.placeholder)');

describe('branch composer when the reply comes after the live event', () => {
  it('still puts the cursor on the new entry (the event found no pending selection yet)', async () => {
    const api = await renderSession();
    injectFault(api, 'branch', async (req, real) => {
      const r = await real(req);
      // The watcher's append event reaches the tree before the write's reply (as over a busy socket).
      await waitFor(() => expect(rows()).toHaveLength(14));
      await new Promise((done) => setTimeout(done, 200));
      return r;
    });
    fireEvent.click(treeRow('e0005'));
    await waitFor(() => expect(treeRow('e0005').textContent).toContain('▶ selected'));
    press('b');
    const box = await screen.findByRole('textbox', { name: /New directive under e0005/ });
    fireEvent.change(box, { target: { value: 'late reply' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(screen.queryByRole('textbox', { name: /New directive under/ })).toBeNull());
    await waitFor(() => expect(document.querySelector('.tree-row.cursor')?.textContent).toContain('late reply'));
    // The cursor can reach the new row with the live event; the leaf is selected when the late reply
    // comes (branched), so on a loaded machine the two are drawn apart.
    await waitFor(() => expect(document.querySelector('.tree-row.selected-leaf')?.textContent).toContain('late reply'));
  });
});
