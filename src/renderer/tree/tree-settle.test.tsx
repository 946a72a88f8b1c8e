// @vitest-environment jsdom
import { act, fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LeafViewRequest } from '../../shared/api';
import { currentTreeSource } from '../data/session-sources';
import { useAppStore } from '../store/app-store';
import { cursorId, renderOnBackend, sessionHash, treeRow, waitCursor } from '../test-support/render-backend';
import { longSession } from '../test-support/written-sessions';
import { SETTLE_MS } from './key-settle';

const leafViews = (calls: { method: string; req: unknown }[]) =>
  calls.filter((c) => c.method === 'getLeafView').map((c) => c.req as LeafViewRequest);

/** Presses keys in one go, as fast as a held key repeats: no answer arrives in between. */
function pressQuickly(key: string, times: number): void {
  act(() => {
    for (let i = 0; i < times; i++) fireEvent.keyDown(document.body, { key });
  });
}

async function openLong() {
  // 1 header + 100 × (user, assistant, receipt): rows h, u0, a0, r0, … r99 (row 300 is r99, the active leaf).
  const api = await renderOnBackend({ written: { long: longSession(100) }, hash: sessionHash('long') });
  await waitFor(() => expect(cursorId()).toBe('r99'));
  await waitFor(() => expect(useAppStore.getState().leafView?.leaf).toBe('r99'));
  return api;
}

describe('moving the cursor with keys (superseded work is dropped)', { timeout: 60_000 }, () => {
  it('five quick k presses draw the cursor at once and ask for one leaf view, the fifth row’s', async () => {
    const api = await openLong();
    const before = leafViews(api.calls).length;
    pressQuickly('k', 5);
    // The cursor is drawn on the fifth row up at once, before any leaf view is asked for.
    expect(useAppStore.getState().selectedRow).toBe(295);
    expect(leafViews(api.calls).length).toBe(before);
    await waitFor(() => expect(useAppStore.getState().leafView?.leaf).toBe('u98'));
    await new Promise((r) => setTimeout(r, SETTLE_MS * 3));
    const asked = leafViews(api.calls).slice(before);
    expect(asked.map((r) => r.leaf)).toEqual(['u98']);
    // The projected pane comes paged: the first screen only.
    expect(asked[0].pagedMessages).toBe(true);
    expect(cursorId()).toBe('u98');
  });

  it('a key let go asks for its row’s panes; a held key’s repeats ask for nothing', async () => {
    const api = await openLong();
    const before = leafViews(api.calls).length;
    // Held: repeats, no release. The cursor moves, nothing is asked.
    act(() => {
      fireEvent.keyDown(document.body, { key: 'k' });
      fireEvent.keyDown(document.body, { key: 'k', repeat: true });
      fireEvent.keyDown(document.body, { key: 'k', repeat: true });
    });
    expect(useAppStore.getState().selectedRow).toBe(297);
    expect(leafViews(api.calls).length).toBe(before);
    // Let go: asked once no press follows (key-settle.ts), for the row the repeats reached.
    act(() => {
      fireEvent.keyUp(document.body, { key: 'k' });
    });
    await waitFor(() => expect(useAppStore.getState().leaf).toBe('r98'));
    expect(
      leafViews(api.calls)
        .slice(before)
        .map((r) => r.leaf),
    ).toEqual(['r98']);
    await waitFor(() => expect(useAppStore.getState().leafView?.leaf).toBe('r98'));
  });

  it('PageDown and PageUp move the selection by a page of rows, not only the scroll', async () => {
    const api = await openLong();
    pressQuickly('Home', 1);
    await waitCursor('h');
    const before = leafViews(api.calls).length;
    pressQuickly('PageDown', 1);
    // jsdom's tree is 800 px tall: 33 rows of 24 px, a page moves 32 (one row of context kept).
    expect(useAppStore.getState().selectedRow).toBe(32);
    await waitFor(() => expect(useAppStore.getState().leaf).toBe('a10'));
    pressQuickly('PageDown', 2);
    expect(useAppStore.getState().selectedRow).toBe(96);
    await waitFor(() => expect(useAppStore.getState().leaf).toBe('r31'));
    pressQuickly('PageUp', 1);
    expect(useAppStore.getState().selectedRow).toBe(64);
    await waitFor(() => expect(useAppStore.getState().leafView?.leaf).toBe('u21'));
    // Each resting place asked for its leaf view, nothing in between (Home's own, then three).
    expect(
      leafViews(api.calls)
        .slice(before)
        .map((r) => r.leaf),
    ).toEqual(['a10', 'r31', 'u21']);
  });

  it('keys pressed while Home waits for its rows step from the first row, in the order pressed', async () => {
    // 601 rows: the tree opens at the end, so Home's first page is not loaded yet.
    const api = await renderOnBackend({ written: { long: longSession(200) }, hash: sessionHash('long') });
    await waitFor(() => expect(cursorId()).toBe('r199'));
    await waitFor(() => expect(useAppStore.getState().leafView?.leaf).toBe('r199'));
    const before = leafViews(api.calls).length;
    act(() => {
      fireEvent.keyDown(document.body, { key: 'Home' });
      for (let i = 0; i < 3; i++) fireEvent.keyDown(document.body, { key: 'j' });
    });
    // Rows h, u0, a0, r0: three steps down from the first row.
    await waitFor(() => expect(useAppStore.getState().leaf).toBe('r0'));
    expect(cursorId()).toBe('r0');
    await waitFor(() => expect(useAppStore.getState().leafView?.leaf).toBe('r0'));
    expect(
      leafViews(api.calls)
        .slice(before)
        .map((r) => r.leaf),
    ).toEqual(['r0']);
  });

  it('a click while Home waits for its rows wins: Home moves nothing after it', async () => {
    await renderOnBackend({ written: { long: longSession(200) }, hash: sessionHash('long') });
    await waitFor(() => expect(cursorId()).toBe('r199'));
    act(() => {
      fireEvent.keyDown(document.body, { key: 'Home' });
      fireEvent.click(treeRow('a199'));
    });
    await waitFor(() => expect(useAppStore.getState().leafView?.leaf).toBe('a199'));
    // Home's page came (and Home's command went on after it): the cursor stayed on the clicked row.
    await waitFor(() => expect(currentTreeSource()?.get(0)?.id).toBe('h'));
    await act(async () => {}); // the microtasks that follow the page's answer
    expect(cursorId()).toBe('a199');
    expect(useAppStore.getState().leaf).toBe('a199');
  });
});
