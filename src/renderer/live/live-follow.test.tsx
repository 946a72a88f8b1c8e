// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SESSION_A } from '../api/fake-data';
import { press, renderWithSession, treeRow, waitCursor } from '../test-support/render-app';

const append = (id: string, parent: string) => ({
  id,
  parent_id: parent,
  ts: '2026-11-29T09:30:00.000Z',
  kind: 'message',
  message: { role: 'assistant', content: [{ type: 'text', text: `appended ${id}` }] },
});

describe('live session', () => {
  it('subscribes to the library and the open session', async () => {
    const api = await renderWithSession();
    const subs = api.calls.filter((c) => c.method === 'subscribe').map((c) => c.req);
    expect(subs).toEqual(expect.arrayContaining([{ topic: 'library' }, { topic: 'session', key: SESSION_A }]));
  });

  it('streams a pushed entry in; with follow on, the newest leaf becomes selected', async () => {
    const api = await renderWithSession();
    fireEvent.click(treeRow('e05'));
    await waitCursor('e05');
    act(() => api.appendExternal(SESSION_A, append('x1', 'e13')));
    await screen.findByText('appended x1', { selector: '.tree-row .row-text' });
    // Follow off: the selection stays.
    expect(document.querySelector('.tree-row.cursor')?.getAttribute('data-entry-id')).toBe('e05');
    press('f');
    expect(screen.getByRole('button', { name: /follow/ }).getAttribute('aria-pressed')).toBe('true');
    act(() => api.appendExternal(SESSION_A, append('x2', 'x1')));
    await waitCursor('x2');
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Projected context' }).textContent).toContain('appended x2'),
    );
    expect(treeRow('x2').textContent).toContain('◀ active');
  });

  it('shows reading progress while a session opens', async () => {
    const api = await renderWithSession();
    act(() => api.emit({ type: 'progress', key: SESSION_A, bytesRead: 50, bytesTotal: 100 }));
    expect(screen.getByLabelText('Reading the session').getAttribute('value')).toBe('50');
    act(() => api.emit({ type: 'progress', key: SESSION_A, bytesRead: 100, bytesTotal: 100 }));
    expect(screen.queryByLabelText('Reading the session')).toBeNull();
  });

  it('applies library events', async () => {
    const api = await renderWithSession();
    const nav = screen.getByRole('navigation', { name: 'Library' });
    act(() => api.emit({ type: 'library', changed: [], removed: ['agents/reviewer/sessions/abc123/sess-d.jsonl'] }));
    await waitFor(() => expect(nav.textContent).not.toContain('Review the diff'));
  });
});
