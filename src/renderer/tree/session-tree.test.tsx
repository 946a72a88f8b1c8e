// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { cursorId, press, renderWithSession, treeRow, waitCursor } from '../test-support/render-app';

describe('session tree', () => {
  it('draws rows with lanes, dots, marks and times', async () => {
    await renderWithSession();
    expect(document.querySelectorAll('.tree-row:not(.placeholder)')).toHaveLength(13);
    expect(treeRow('e13').textContent).toContain('◀ active');
    expect(treeRow('e05').textContent).toContain('⑂2');
    expect(treeRow('e09').textContent).toContain('leaf');
    expect(treeRow('e02').querySelector('circle.dot.filled')).toBeTruthy();
    expect(treeRow('e06').querySelector('circle.dot.hollow')).toBeTruthy();
    // e08 forks from e05 into lane 1: a fork path at e05, e08's dot in the second column.
    expect(treeRow('e05').querySelectorAll('path').length).toBe(1);
    expect(treeRow('e08').querySelector('circle')?.getAttribute('cx')).toBe('18');
    expect(treeRow('e02').querySelector('.row-time')?.textContent).toBe('09:01:00');
  });

  it('walks rows, parents, children, siblings and ends with the keyboard', async () => {
    await renderWithSession();
    press('j');
    await waitCursor('e01');
    press('j');
    await waitCursor('e02');
    press('ArrowDown');
    await waitCursor('e03');
    press('k');
    await waitCursor('e02');
    press('End');
    await waitCursor('e13');
    press('h');
    await waitCursor('e12');
    press('Home');
    await waitCursor('e01');
    press('l');
    await waitCursor('e02');
    // From e09 (on the abandoned branch) `]`/`[` switch between e05's children.
    fireEvent.click(treeRow('e09'));
    await waitCursor('e09');
    press('[');
    await waitCursor('e06');
    press(']');
    await waitCursor('e08');
    press('?');
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' }).textContent).toContain('sibling branch');
    press('Escape');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('selecting a row makes it the leaf, marked apart from the active leaf', async () => {
    await renderWithSession();
    fireEvent.click(treeRow('e05'));
    await waitFor(() => expect(treeRow('e05').textContent).toContain('▶ selected'));
    expect(treeRow('e13').textContent).toContain('◀ active');
    expect(treeRow('e13').textContent).not.toContain('▶ selected');
    expect(window.location.hash).toContain('leaf=e05');
    expect(cursorId()).toBe('e05');
  });

  it('folds audit runs into one row and back', async () => {
    const api = await renderWithSession();
    fireEvent.click(screen.getByLabelText('fold audit runs', { exact: false }));
    const fold = await screen.findAllByText(/2 audit entries/);
    expect(fold.length).toBeGreaterThan(0);
    expect(api.calls.some((c) => c.method === 'getTreeRows' && (c.req as { foldAudit: boolean }).foldAudit)).toBe(true);
    fireEvent.click(fold[0]);
    await waitFor(() => expect(document.querySelectorAll('.tree-row:not(.placeholder)')).toHaveLength(13));
  });
});
