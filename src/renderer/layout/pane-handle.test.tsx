// @vitest-environment jsdom
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderSession } from '../test-support/render-backend';
import { resetAppStore, useAppStore } from '../store/app-store';
import { PANE_LIMITS, PANE_WIDTHS_KEY } from '../store/layout-slice';

describe('pane handles', () => {
  it('resize the tree and History from the keyboard, and the widths survive a reload', async () => {
    localStorage.removeItem(PANE_WIDTHS_KEY);
    await renderSession('linear');
    const history = await screen.findByRole('separator', { name: 'Resize history' });
    const tree = screen.getByRole('separator', { name: 'Resize session tree' });
    const h0 = PANE_LIMITS.history.initial;
    const cursor = useAppStore.getState().selectedRow;
    history.focus();
    fireEvent.keyDown(history, { key: 'ArrowRight' });
    fireEvent.keyDown(history, { key: 'ArrowRight', shiftKey: true });
    expect(history.getAttribute('aria-valuenow')).toBe(String(h0 + 16 + 64));
    expect(document.documentElement.style.getPropertyValue('--history-w')).toBe(`${h0 + 80}px`);
    fireEvent.keyDown(tree, { key: 'Home' });
    expect(tree.getAttribute('aria-valuenow')).toBe(String(PANE_LIMITS.tree.min));
    // The keys belong to the handle while it has focus: the tree's cursor did not move.
    expect(useAppStore.getState().selectedRow).toBe(cursor);
    expect(useAppStore.getState().paneWidths).toEqual({ tree: PANE_LIMITS.tree.min, history: h0 + 80 });
    expect(JSON.parse(localStorage.getItem(PANE_WIDTHS_KEY) ?? '{}')).toMatchObject({
      tree: PANE_LIMITS.tree.min,
      history: h0 + 80,
    });
    resetAppStore(); // what a reload starts from
    expect(useAppStore.getState().paneWidths).toEqual({ tree: PANE_LIMITS.tree.min, history: h0 + 80 });
    localStorage.removeItem(PANE_WIDTHS_KEY);
  });
});
