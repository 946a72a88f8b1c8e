// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SESSION_A, longEntries } from '../api/fake-data';
import { renderApp, renderWithSession, treeRow } from '../test-support/render-app';
import { stubScrolling } from '../test-support/scroll-stub';

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
    // One source entry, one message: one connector between the columns.
    await waitFor(() => expect(document.querySelectorAll('.leaf-columns svg.link-lines path')).toHaveLength(1));
    fireEvent.mouseLeave(msg);
    expect(treeRow('e03').classList.contains('linked')).toBe(false);
    expect(document.querySelector('.leaf-columns svg.link-lines')).toBeNull();
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

describe('hover linking on a long chain', () => {
  it('a projected message scrolls the history to a source outside the loaded window', async () => {
    const unstub = stubScrolling();
    try {
      const api = renderApp({
        hash: `#s=${encodeURIComponent(SESSION_A)}`,
        entries: { [SESSION_A]: longEntries(400) },
      });
      await waitFor(() => expect(history().querySelector('[data-entry-id="r399"]')).not.toBeNull());
      expect(history().querySelector('[data-entry-id="u0"]')).toBeNull();
      const msg = await waitFor(() => {
        const m = projected().querySelector<HTMLElement>('.projected-msg[data-message-index="0"]');
        expect(m?.textContent).toContain('ask 0');
        return m!;
      });
      fireEvent.mouseEnter(msg);
      // u0 sits at chain position 1: the history jumps there, fetches that page and lights it.
      await waitFor(() =>
        expect(history().querySelector('[data-entry-id="u0"]')?.classList.contains('linked')).toBe(true),
      );
      expect(api.calls.some((c) => c.method === 'getChainItems' && (c.req as { start: number }).start <= 1)).toBe(true);
      // Hovering the entry lights the message back; a receipt says why it is not sent.
      fireEvent.mouseLeave(msg);
      fireEvent.mouseEnter(history().querySelector('[data-entry-id="r0"]')!);
      expect(screen.getByRole('status').textContent).toBe('not model-visible: audit');
    } finally {
      unstub();
    }
  });
});
