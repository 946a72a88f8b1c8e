// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithSession, treeRow } from '../test-support/render-app';

const history = () => screen.getByRole('region', { name: 'History' });
const projected = () => screen.getByRole('region', { name: 'Projected context' });

describe('hover linking', () => {
  it('a projected message lights its source entries in the history and the tree', async () => {
    await renderWithSession();
    await waitFor(() => expect(projected().querySelectorAll('.projected-msg').length).toBeGreaterThan(3));
    const msg = projected().querySelector<HTMLElement>('.projected-msg[data-message-index="1"]')!;
    expect(msg.textContent).toContain('e03');
    fireEvent.mouseEnter(msg);
    expect(history().querySelector('[data-entry-id="e03"]')?.classList.contains('linked')).toBe(true);
    expect(treeRow('e03').classList.contains('linked')).toBe(true);
    expect(treeRow('e02').classList.contains('linked')).toBe(false);
    fireEvent.mouseLeave(msg);
    expect(treeRow('e03').classList.contains('linked')).toBe(false);
  });

  it('a click pins the link until Escape', async () => {
    await renderWithSession();
    await waitFor(() => expect(projected().querySelectorAll('.projected-msg').length).toBeGreaterThan(3));
    fireEvent.click(within(projected()).getByRole('button', { name: '#0' }));
    expect(treeRow('e02').classList.contains('linked')).toBe(true);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    await waitFor(() => expect(treeRow('e02').classList.contains('linked')).toBe(false));
  });

  it('an entry lights where it went, or says why it did not', async () => {
    await renderWithSession();
    await waitFor(() => expect(history().querySelectorAll('.history-item').length).toBe(11));
    fireEvent.mouseEnter(history().querySelector('[data-entry-id="e12"]')!);
    const lit = [...projected().querySelectorAll('.projected-msg.linked')];
    expect(lit).toHaveLength(1);
    expect(lit[0].textContent).toContain('Fix the cache eviction.');
    fireEvent.mouseEnter(history().querySelector('[data-entry-id="e06"]')!);
    expect(projected().querySelectorAll('.projected-msg.linked')).toHaveLength(0);
    expect(screen.getByRole('status').textContent).toBe('not model-visible: audit');
    // Hovering a tree row does the same.
    fireEvent.mouseEnter(treeRow('e13'));
    expect(projected().querySelectorAll('.projected-msg.linked').length).toBeGreaterThan(0);
  });
});
