// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { press, renderWithSession, treeRow, waitCursor } from '../test-support/render-app';

describe('branch composer', () => {
  it('b opens it under the selected entry; Enter appends and selects the new entry', async () => {
    const api = await renderWithSession();
    fireEvent.click(treeRow('e05'));
    await waitFor(() => expect(treeRow('e05').textContent).toContain('▶ selected'));
    press('b');
    const box = await screen.findByRole('textbox', { name: /New directive under/ });
    fireEvent.change(box, { target: { value: 'line one' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(api.calls.some((c) => c.method === 'branch')).toBe(false);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'branch')?.req).toEqual({
        key: expect.any(String),
        parentId: 'e05',
        text: 'line one',
        idempotencyKey: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      }),
    );
    await waitCursor('b1');
    expect(treeRow('b1').textContent).toContain('◀ active');
    expect(screen.queryByRole('textbox', { name: /New directive under/ })).toBeNull();
    expect(api.calls.filter((c) => c.method === 'branch')).toHaveLength(1);
  });

  it('keeps a lock error in place and writes nothing; Esc cancels', async () => {
    const api = await renderWithSession({ locked: true });
    fireEvent.click(treeRow('e13'));
    await waitFor(() => expect(treeRow('e13').textContent).toContain('▶ selected'));
    press('b');
    const box = await screen.findByRole('textbox', { name: /New directive under e13/ });
    fireEvent.change(box, { target: { value: 'hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toContain('An agent holds the lock');
    expect(screen.getByRole('textbox', { name: /New directive under e13/ })).toBeTruthy();
    expect(document.querySelectorAll('.tree-row:not(.placeholder)')).toHaveLength(13);
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('textbox', { name: /New directive/ })).toBeNull();
    expect(api.calls.filter((c) => c.method === 'branch')).toHaveLength(1);
    // Nothing lost: the unsent text is there again when the composer reopens on that entry.
    press('b');
    const again = await screen.findByRole('textbox', { name: /New directive under e13/ });
    expect((again as HTMLTextAreaElement).value).toBe('hello');
  });

  it('refuses an empty directive without calling the API', async () => {
    const api = await renderWithSession();
    fireEvent.click(treeRow('e02'));
    await waitFor(() => expect(treeRow('e02').textContent).toContain('▶ selected'));
    press('b');
    const box = await screen.findByRole('textbox', { name: /New directive under e02/ });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toContain('empty');
    expect(api.calls.some((c) => c.method === 'branch')).toBe(false);
  });
});
