// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { cursorId, press, renderSession, treeRow, waitCursor } from '../test-support/render-backend';

// branching.jsonl: e0001 header → e0002…e0005 (a turn); under the answer e0005 two directives:
// e0006 → e0009 (the first branch) and e0010 → e0013 (the active leaf, the file's last line).
describe('session tree', () => {
  it('draws rows with lanes, dots, marks and times', async () => {
    await renderSession();
    await waitFor(() => expect(document.querySelectorAll('.tree-row:not(.placeholder)')).toHaveLength(13));
    expect(treeRow('e0013').textContent).toContain('◀ active');
    // The branch mark is an inline SVG (no font needed) and the child count.
    expect(treeRow('e0005').querySelector('.mark.branch svg.icon-branch')).toBeTruthy();
    expect(treeRow('e0005').querySelector('.mark.branch')?.textContent).toBe('2');
    expect(treeRow('e0009').textContent).toContain('leaf');
    expect(treeRow('e0002').querySelector('circle.dot.filled')).toBeTruthy();
    expect(treeRow('e0001').querySelector('circle.dot.hollow')).toBeTruthy();
    // The second child of e0005 forks into lane 1: a fork path at e0005, its dot in the second column.
    expect(treeRow('e0005').querySelectorAll('svg.lanes path').length).toBe(1);
    expect(treeRow('e0010').querySelector('svg.lanes circle')?.getAttribute('cx')).toBe('18');
  });

  it('walks rows, parents, children, siblings and ends with the keyboard', async () => {
    await renderSession();
    // The cursor opens on the selected leaf (the active one).
    await waitCursor('e0013');
    press('Home');
    await waitCursor('e0001');
    press('j');
    await waitCursor('e0002');
    press('ArrowDown');
    await waitCursor('e0003');
    press('k');
    await waitCursor('e0002');
    press('End');
    await waitCursor('e0013');
    press('h');
    await waitCursor('e0012');
    press('Home');
    await waitCursor('e0001');
    press('l');
    await waitCursor('e0002');
    // From e0008 (on the first branch) `]`/`[` switch between e0005's children.
    fireEvent.click(treeRow('e0008'));
    await waitCursor('e0008');
    press(']');
    await waitCursor('e0010');
    press('[');
    await waitCursor('e0006');
    press('?');
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' }).textContent).toContain('sibling branch');
    press('Escape');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('selecting a row makes it the leaf, marked apart from the active leaf', async () => {
    await renderSession();
    fireEvent.click(treeRow('e0007'));
    await waitFor(() => expect(treeRow('e0007').textContent).toContain('▶ selected'));
    expect(treeRow('e0013').textContent).toContain('◀ active');
    expect(treeRow('e0013').textContent).not.toContain('▶ selected');
    expect(window.location.hash).toContain('leaf=e0007');
    expect(cursorId()).toBe('e0007');
  });

  it('folds audit runs into one row and back', async () => {
    // linear.jsonl: e0017 (turn_card) and e0018 (intent) follow each other: one folded row.
    const api = await renderSession('linear');
    fireEvent.click(screen.getByLabelText('fold audit runs', { exact: false }));
    const fold = await screen.findByText('▸ 2 audit entries');
    expect(fold.closest('.tree-row')?.getAttribute('data-entry-id')).toBe('e0017');
    expect(document.querySelector('.tree-row[data-entry-id="e0018"]')).toBeNull();
    expect(api.calls.some((c) => c.method === 'getTreeRows' && (c.req as { foldAudit: boolean }).foldAudit)).toBe(true);
    fireEvent.click(fold);
    await waitFor(() => expect(document.querySelectorAll('.tree-row:not(.placeholder)')).toHaveLength(21));
  });
});
