// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { cursorId, press, renderOnBackend, renderSession, sessionHash, treeRow } from '../test-support/render-backend';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const rows = () => document.querySelectorAll('.tree-row:not(.placeholder)');

// branching.jsonl: 13 entries; e0005 is the branch point, e0013 the active leaf.
describe('branch composer', () => {
  it('b opens it under the selected entry; Enter appends to the file and selects the new entry', async () => {
    const api = await renderSession();
    fireEvent.click(treeRow('e0005'));
    await waitFor(() => expect(treeRow('e0005').textContent).toContain('▶ selected'));
    press('b');
    const box = await screen.findByRole('textbox', { name: /New directive under/ });
    fireEvent.change(box, { target: { value: 'line one' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(api.calls.some((c) => c.method === 'branch')).toBe(false);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'branch')?.req).toEqual({
        key: api.keyOf('branching'),
        parentId: 'e0005',
        text: 'line one',
        idempotencyKey: expect.stringMatching(UUID),
      }),
    );
    // The backend wrote it: the tree shows a 14th row, the new active leaf, with the cursor on it.
    await waitFor(() => expect(rows()).toHaveLength(14));
    await waitFor(() => expect(document.querySelector('.tree-row.cursor')?.textContent).toContain('line one'));
    expect(document.querySelector('.tree-row.cursor')?.textContent).toContain('◀ active');
    expect(cursorId()).not.toBe('e0005');
    expect(screen.queryByRole('textbox', { name: /New directive under/ })).toBeNull();
    expect(api.calls.filter((c) => c.method === 'branch')).toHaveLength(1);
  });

  it('keeps a lock error in place and writes nothing; Esc cancels', async () => {
    // An agent holds the session's flock: §7 refuses the append.
    const api = await renderOnBackend({
      fixtures: ['branching'],
      locked: ['branching'],
      hash: sessionHash('branching'),
    });
    await waitFor(() => expect(treeRow('e0013')).toBeTruthy());
    fireEvent.click(treeRow('e0013'));
    await waitFor(() => expect(treeRow('e0013').textContent).toContain('▶ selected'));
    press('b');
    const box = await screen.findByRole('textbox', { name: /New directive under e0013/ });
    fireEvent.change(box, { target: { value: 'hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    const alert = (await screen.findByRole('alert')).textContent ?? '';
    expect(alert).toContain('An agent holds the lock');
    // Said once: the backend's own sentence is not repeated in brackets after the composer's.
    expect(alert.match(/holds the lock/gi)).toHaveLength(1);
    expect(alert.match(/nothing was written/gi)).toHaveLength(1);
    expect(screen.getByRole('textbox', { name: /New directive under e0013/ })).toBeTruthy();
    expect(rows()).toHaveLength(13);
    expect((await api.openSession({ key: api.keyOf('branching') })).entryCount).toBe(13);
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('textbox', { name: /New directive/ })).toBeNull();
    expect(api.calls.filter((c) => c.method === 'branch')).toHaveLength(1);
    // Nothing lost: the unsent text is there again when the composer reopens on that entry.
    press('b');
    const again = await screen.findByRole('textbox', { name: /New directive under e0013/ });
    expect((again as HTMLTextAreaElement).value).toBe('hello');
  });

  it('refuses an empty directive without calling the API', async () => {
    const api = await renderSession();
    fireEvent.click(treeRow('e0002'));
    await waitFor(() => expect(treeRow('e0002').textContent).toContain('▶ selected'));
    press('b');
    const box = await screen.findByRole('textbox', { name: /New directive under e0002/ });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toContain('empty');
    expect(api.calls.some((c) => c.method === 'branch')).toBe(false);
  });
});
